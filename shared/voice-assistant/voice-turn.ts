import type { TranscriptEntry } from '../calls/record';
import { describeError } from '../platform/logger';
import { createOfflineLlm } from '../providers/llm/offline';
import type { ChatMessage, GeneratedBy, StreamingLlmClient, TextStreamRequest } from '../providers/llm/port';
import type { CallBrief } from './call-brief';
import { RELAY_LIMITS } from './limits';
import { closing, offlineVoiceReply } from './offline-voice';
import { SpeechChunker } from './speech-chunks';

/** One turn of the assistant, as it was spoken. */
export interface SpokenTurn {
  /** What the caller heard (the transcript keeps it): plain speech, at most RELAY_LIMITS.maxReplyCharacters. */
  reply: string;
  endCall: boolean;
  generatedBy: GeneratedBy;
  model: string;
  /** Why the offline writer answered instead of the model, or why the model's reply was cut short, when it was. */
  fallbackReason?: string;
  /** False when the socket was gone before the reply's `last: true` could be sent. */
  delivered: boolean;
}

/**
 * Speaks one piece of a reply: `last` closes it. Resolves false when the
 * socket is gone (the caller hung up): nothing more is sent.
 */
export type Speak = (token: string, last: boolean) => Promise<boolean>;

/** The tool the model calls to end the call, and what it is told about it. */
const END_CALL_TOOL = 'end_call';
const TOOLS = {
  [END_CALL_TOOL]:
    'Ends the phone call after your reply has been spoken. Call it only when the caller says goodbye or asks to end, or once the next steps are agreed and your reply says goodbye.',
} as const;

/** What the caller hears when the model fails after part of its reply was spoken. */
export const MIDWAY_APOLOGY = 'Sorry, I lost my train of thought. Could you say that again?';

/** What the assistant is told about speaking on a phone call, after its pre-call guidance. */
const VOICE_RULES = [
  'You are speaking on a live phone call: every reply is read aloud by a text-to-speech voice as you write it.',
  'Answer in plain spoken sentences: no Markdown, no lists, no headings, no emojis, nothing in brackets or braces, no URLs.',
  'Keep each reply short: one to three sentences, and at most one question.',
  'Use only the figures in your guidance above and what the caller says; never invent a figure, a name or a commitment.',
  `Call the ${END_CALL_TOOL} tool only when the caller says goodbye or asks to end, or once the next steps are agreed and you have said goodbye; never say that you are calling it.`,
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
 * Use case: the assistant's reply to the caller's last words, spoken as the
 * model writes it. The model streams plain text, sent through `speak` in
 * chunks (SpeechChunker: plain speech, whole words, bounded length) with
 * `last: false`, and the final chunk with `last: true`. Whether the call is
 * over is the model's call of the `end_call` tool, read when its text is
 * done: a tool call is never part of the text, so no marker can be spoken
 * and nothing is held back waiting for a JSON field.
 *
 * The caller is never left in silence, and every reply ends with
 * `last: true`: when the model fails or says nothing before any text was
 * spoken, the offline writer answers the turn (labelled `offline`, with
 * the reason); when it fails midway, what was spoken stays and a short
 * apology closes the reply. `closingLine`, when given (a limit of the call
 * was reached), is spoken instead of asking anyone, and ends the call.
 */
export async function speakTurn(
  llm: StreamingLlmClient,
  brief: Pick<CallBrief, 'preCallPrompt' | 'meeting'>,
  transcript: readonly TranscriptEntry[],
  speak: Speak,
  closingLine?: string,
): Promise<SpokenTurn> {
  const offline = createOfflineLlm();
  const written = (): { text: string; toolCalls: string[] } => {
    const reply = closingLine !== undefined ? closing(closingLine) : offlineVoiceReply(brief, transcript);
    return { text: reply.reply, toolCalls: reply.end_call ? [END_CALL_TOOL] : [] };
  };
  const request: TextStreamRequest = {
    messages: voiceTurnMessages(brief, transcript),
    tools: TOOLS,
    maxTokens: RELAY_LIMITS.replyMaxTokens,
    offline: written,
  };
  const fromOffline = async (fallbackReason?: string): Promise<SpokenTurn> => {
    const turn = await streamReply(offline, request, speak);
    return { ...turn, generatedBy: 'offline', model: offline.model, ...(fallbackReason ? { fallbackReason } : {}) };
  };
  if (closingLine !== undefined) return fromOffline();

  const turn = await streamReply(llm, request, speak);
  const base = { generatedBy: llm.generatedBy, model: llm.model };
  if (turn.failure !== undefined && turn.reply.length === 0) return fromOffline(`the model could not answer (${turn.failure})`);
  if (turn.failure !== undefined) return { ...turn, ...base, fallbackReason: `the model failed midway (${turn.failure})` };
  if (turn.reply.length > 0 || !turn.delivered) return { ...turn, ...base };
  if (turn.endCall) return { ...(await fromOffline('the model ended the call without a word')), endCall: true };
  return fromOffline('the model gave an empty reply');
}

/** A reply streamed from one client; `failure` names the error that stopped it, if one did. */
async function streamReply(
  llm: StreamingLlmClient,
  request: TextStreamRequest,
  speak: Speak,
): Promise<Omit<SpokenTurn, 'generatedBy' | 'model'> & { failure?: string }> {
  const chunker = new SpeechChunker(RELAY_LIMITS.maxReplyCharacters);
  const stop = new AbortController();
  let endCall = false;
  let open = true;
  let closed = false;
  let heard = '';
  const send = async (token: string, last: boolean) => {
    if (!open || (token.length === 0 && !last)) return;
    open = await speak(token, last);
    if (open) heard += token;
    else stop.abort();
    if (last) closed = true;
  };
  try {
    for await (const part of llm.streamText({ ...request, signal: stop.signal })) {
      if (part.type === 'tool_call') {
        if (part.name === END_CALL_TOOL) endCall = true;
        continue;
      }
      if (closed) continue;
      const chunk = chunker.push(part.text);
      // At the length limit the reply is over: its last chunk closes it, and the rest of the text is not spoken.
      if (chunker.atLimit) await send(chunk, true);
      else await send(chunk, false);
      if (!open) break;
    }
  } catch (error) {
    if (!open) return { reply: heard, endCall: false, delivered: false };
    const failure = describeError(error).name;
    // Past the length limit the reply was closed already; only the end_call decision is lost.
    if (closed) return { reply: heard, endCall: false, delivered: true };
    if (chunker.spoken.length === 0) return { reply: '', endCall: false, delivered: true, failure };
    await send(` ${MIDWAY_APOLOGY}`, true);
    return { reply: heard, endCall: false, delivered: open, failure };
  }
  if (!open) return { reply: heard, endCall, delivered: false };
  if (!closed) {
    const rest = chunker.finish();
    if (chunker.spoken.length === 0) return { reply: '', endCall, delivered: true };
    await send(rest, true);
  }
  return { reply: heard, endCall, delivered: open };
}
