import type { TranscriptEntry } from '../calls/record';
import { callerTurns, type CallBrief } from './call-brief';
import { cutAt } from './speech';

/** What the offline writer says, and whether the call should end after it. */
export interface VoiceReply {
  reply: string;
  end_call: boolean;
}

/** One talking point of the pre-call prompt: its name and what the prompt says about it. */
export interface TalkingPoint {
  topic: string;
  detail: string;
}

const TALKING_POINTS_HEADING = /^Cover these talking points/i;
const OPENING_LINE = /^Opening line:\s*(.+)$/m;
const GOODBYE = /\b(?:good ?bye|bye|that'?s all|that is all|hang up|end (?:the|this) call|nothing else|no more questions)\b/i;
/** Longest detail read aloud from a talking point. */
const MAX_DETAIL = 280;

/**
 * The talking points of a pre-call prompt: the `- topic: detail` lines
 * under its "Cover these talking points" heading, in order.
 */
export function talkingPoints(preCallPrompt: string): TalkingPoint[] {
  const lines = preCallPrompt.split('\n');
  const start = lines.findIndex((line) => TALKING_POINTS_HEADING.test(line.trim()));
  if (start < 0) return [];
  const points: TalkingPoint[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^\s*-\s*([^:]+):\s*(.*)$/.exec(line);
    if (!match) break;
    points.push({ topic: match[1]!.trim(), detail: match[2]!.trim() });
  }
  return points;
}

/** The opening line the pre-call prompt quotes (Twilio speaks it as the welcome greeting), if it quotes one. */
export function openingLine(preCallPrompt: string): string | undefined {
  return OPENING_LINE.exec(preCallPrompt)?.[1]?.trim() || undefined;
}

/**
 * The deterministic writer of the assistant's turns (no model): it walks
 * the pre-call prompt's talking points in order, one per caller turn,
 * reading out what the prompt knows of each (the site's own figures) and
 * asking for the caller's view; then it asks for decisions and next steps,
 * and closes. A caller who says goodbye is thanked and the call ends.
 * The same transcript always gets the same reply.
 */
export function offlineVoiceReply(brief: Pick<CallBrief, 'preCallPrompt' | 'meeting'>, transcript: readonly TranscriptEntry[]): VoiceReply {
  const turns = callerTurns(transcript);
  const said = [...transcript].reverse().find((entry) => entry.role === 'user' && entry.dtmf === undefined)?.content ?? '';
  if (GOODBYE.test(said)) return closing();
  const points = talkingPoints(brief.preCallPrompt);
  const index = turns - 1;
  const acknowledgement = turns <= 1 ? 'Thank you.' : 'Thank you, I have noted that.';
  if (index < points.length) {
    const point = points[index]!;
    return {
      reply: `${acknowledgement} ${index === 0 ? "Let's start with" : 'Next,'} ${point.topic}: ${spoken(point.detail)} What is your view?`,
      end_call: false,
    };
  }
  if (index === points.length) {
    return {
      reply: `${acknowledgement} That covers our talking points for ${brief.meeting.title}. Before we close, which decisions and next steps should I note, with an owner and a date for each?`,
      end_call: false,
    };
  }
  return closing();
}

/** The line the assistant ends a call with, by the offline writer or at a limit. */
export function closing(reason?: string): VoiceReply {
  const why = reason ? `${reason} ` : '';
  return {
    reply: `${why}Thank you for your time. I will send a summary with the decisions, action items and requirements. Goodbye.`,
    end_call: true,
  };
}

/**
 * A talking point's detail, as speech: the facts the prompt gives, without
 * its instructions to the assistant (`…; ask the participants…`).
 */
function spoken(detail: string): string {
  const facts = detail
    .split(/[;.]\s*(?:ask|discuss)\b/i)[0]!
    .replace(/_/g, ' ')
    .trim()
    .replace(/[.;:]+$/, '');
  const sentence = facts.length > 0 ? `${facts.charAt(0).toUpperCase()}${facts.slice(1)}.` : '';
  return cutAt(sentence, MAX_DETAIL);
}
