import * as z from 'zod';
import type { TranscriptEntry } from '../calls/record';
import { describeError } from '../platform/logger';
import type { ChatMessage, GeneratedBy, LlmClient } from '../providers/llm/port';
import type { CallBrief } from './call-brief';
import { RELAY_LIMITS } from './limits';
import { offlineVoiceReply, type VoiceReply } from './offline-voice';
import { plainSpeech } from './speech';

/** The model's answer for one turn: what to say, and whether the call is over. */
export const voiceReplySchema = z.object({ reply: z.string(), end_call: z.boolean() });

/** One turn of the assistant, ready to speak. */
export interface AssistantTurn {
  /** Plain speech, short (RELAY_LIMITS.maxReplyCharacters). */
  reply: string;
  endCall: boolean;
  generatedBy: GeneratedBy;
  model: string;
  /** Why the offline writer answered instead of the model, when it did. */
  fallbackReason?: string;
}

/** What the assistant is told about speaking on a phone call, after its pre-call guidance. */
const VOICE_RULES = [
  'You are speaking on a live phone call: every reply is read aloud by a text-to-speech voice.',
  'Answer in plain spoken sentences: no Markdown, no lists, no headings, no emojis, nothing in brackets or braces, no URLs.',
  'Keep each reply short: one to three sentences, and at most one question.',
  'Use only the figures in your guidance above and what the caller says; never invent a figure, a name or a commitment.',
  'Set end_call to true only when the caller says goodbye or asks to end, or once the next steps are agreed and you have said goodbye.',
].join('\n');

/** The messages of one turn: the pre-call prompt and the voice rules, then the latest transcript as the conversation. */
export function voiceTurnMessages(brief: Pick<CallBrief, 'preCallPrompt'>, transcript: readonly TranscriptEntry[]): ChatMessage[] {
  const history = transcript.slice(-RELAY_LIMITS.historyEntries).map((entry): ChatMessage => ({
    role: entry.role,
    content: entry.dtmf !== undefined ? `(The caller pressed ${entry.dtmf} on the keypad.)` : entry.content,
  }));
  return [{ role: 'system', content: `${brief.preCallPrompt}\n\n${VOICE_RULES}` }, ...history];
}

/**
 * Use case: the assistant's reply to the caller's last words. The model
 * answers with structured output (`voiceReplySchema`); its reply is made
 * plain speech and bounded. When the model is unavailable, declines, or
 * says nothing usable, the offline writer answers the turn instead (a
 * caller must never be left in silence), labelled `offline` with the reason.
 */
export async function assistantTurn(
  llm: LlmClient,
  brief: Pick<CallBrief, 'preCallPrompt' | 'meeting'>,
  transcript: readonly TranscriptEntry[],
): Promise<AssistantTurn> {
  const offline = (): VoiceReply => offlineVoiceReply(brief, transcript);
  const fromOffline = (fallbackReason?: string): AssistantTurn => {
    const written = offline();
    return {
      reply: plainSpeech(written.reply, RELAY_LIMITS.maxReplyCharacters),
      endCall: written.end_call,
      generatedBy: 'offline',
      model: 'offline-writer-v1',
      ...(fallbackReason ? { fallbackReason } : {}),
    };
  };
  try {
    const answer = await llm.completeJson({
      schemaName: 'voice_assistant_turn',
      schema: voiceReplySchema,
      messages: voiceTurnMessages(brief, transcript),
      offline,
      maxTokens: RELAY_LIMITS.replyMaxTokens,
    });
    const reply = plainSpeech(answer.value.reply, RELAY_LIMITS.maxReplyCharacters);
    if (reply.length === 0) return fromOffline('the model gave an empty reply');
    return { reply, endCall: answer.value.end_call, generatedBy: answer.generatedBy, model: answer.model };
  } catch (error) {
    return fromOffline(`the model could not answer (${describeError(error).name})`);
  }
}
