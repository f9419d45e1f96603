import { plainSpeech } from './speech';

/** Characters after which a clause ends: a natural place for text-to-speech to take a chunk. */
const CLAUSE_END = /[,.;:!?]/;
/** Pending speech this long is sent even without a clause end (a few chunks per sentence, not one per word). */
const MAX_PENDING_CHARACTERS = 48;

/**
 * Turns a model's streamed text into chunks to speak as it arrives: plain
 * speech (`plainSpeech`), whole words only, a few chunks per sentence.
 *
 * Only text followed by a space that is itself followed by more text is
 * ready: a word is never cut, and the last word always waits for `finish`,
 * so the `last: true` message carries text. The ready text is cleaned as a
 * whole (Markdown that spans chunks is still removed) and what was not yet
 * sent is the next chunk. The first chunk goes out as soon as one word is
 * ready (the time to the first sound is what a caller notices); later ones
 * at the end of a clause or once 48 characters are waiting.
 *
 * At most `max` characters are spoken, cut at a word (not at a sentence, as
 * `plainSpeech` would: what was sent has been heard); past it the rest is
 * dropped.
 */
export class SpeechChunker {
  private raw = '';
  private sent = '';
  private full = false;

  constructor(private readonly max: number) {}

  /** Everything sent so far: what the transcript keeps. */
  get spoken(): string {
    return this.sent;
  }

  /** True once the reply reached `max` characters: nothing more will be sent. */
  get atLimit(): boolean {
    return this.full;
  }

  /** Takes the next piece of the model's text; returns the chunk to send now, or '' to wait. */
  push(text: string): string {
    if (this.full) return '';
    this.raw += text;
    const ready = readyPart(this.raw);
    if (ready.length === 0) return '';
    const pending = this.pendingOf(ready);
    if (pending.trim().length === 0) return '';
    if (this.sent.length === 0 || pending.length >= MAX_PENDING_CHARACTERS || this.sent.length + pending.length > this.max)
      return this.take(pending);
    const clause = lastClauseEnd(pending);
    return clause < 0 ? '' : this.take(pending.slice(0, clause + 1));
  }

  /** The rest of the reply once the model finished (may be '' when nothing is left or the limit was reached). */
  finish(): string {
    if (this.full) return '';
    return this.take(this.pendingOf(this.raw));
  }

  private pendingOf(raw: string): string {
    const clean = plainSpeech(raw, Number.POSITIVE_INFINITY);
    // Cleaning a longer text keeps what a shorter one gave (the ready part ends at a space); past any oddity, never repeat speech.
    return clean.startsWith(this.sent) ? clean.slice(this.sent.length) : clean.slice(Math.min(this.sent.length, clean.length));
  }

  private take(chunk: string): string {
    let piece = this.sent.length === 0 ? chunk.trimStart() : chunk;
    const room = this.max - this.sent.length;
    if (piece.length > room) {
      const head = piece.slice(0, room);
      const space = /\s/.test(piece.charAt(room)) ? room : head.lastIndexOf(' ');
      piece = space > 0 ? head.slice(0, space) : '';
      this.full = true;
    }
    this.sent += piece;
    return piece;
  }
}

/** The part of `raw` up to (and with) its last run of spaces that more text follows: only whole words. */
function readyPart(raw: string): string {
  let end = -1;
  for (const match of raw.matchAll(/\s+(?=\S)/g)) end = match.index + match[0].length;
  return end < 0 ? '' : raw.slice(0, end);
}

function lastClauseEnd(text: string): number {
  for (let index = text.length - 1; index >= 0; index--) {
    if (CLAUSE_END.test(text.charAt(index)) && (index === text.length - 1 || /\s/.test(text.charAt(index + 1)))) return index;
  }
  return -1;
}
