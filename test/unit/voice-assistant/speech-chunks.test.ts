import { SpeechChunker } from '../../../shared/voice-assistant/speech-chunks';

/** Feeds pieces through a chunker; returns the chunks it sent (the last from `finish`). */
function chunksOf(pieces: readonly string[], max = 600): { chunks: string[]; spoken: string } {
  const chunker = new SpeechChunker(max);
  const chunks = pieces.map((piece) => chunker.push(piece)).filter((chunk) => chunk.length > 0);
  const rest = chunker.finish();
  if (rest.length > 0) chunks.push(rest);
  return { chunks, spoken: chunker.spoken };
}

/** True when no chunk boundary falls inside a word. */
function wholeWords(chunks: readonly string[]): boolean {
  return chunks.every((chunk, index) => index === 0 || /^[\s,.;:!?]/.test(chunk) || /\s$/.test(chunks[index - 1]!));
}

describe('SpeechChunker', () => {
  it('sends the first word as soon as it is whole, never half a word', () => {
    const chunker = new SpeechChunker(600);
    expect(chunker.push('Gre')).toBe('');
    expect(chunker.push('at')).toBe('');
    expect(chunker.push(' ne')).toBe('Great');
    expect(chunker.push('ws, the')).toBe(' news,');
    expect(chunker.finish()).toBe(' the');
    expect(chunker.spoken).toBe('Great news, the');
  });

  it('joins back to the plain-speech text, Markdown that spans chunks included, in a few chunks a sentence', () => {
    const text =
      '**Great** news.\n\n- Let us look at the [campaign figures](https://example.com/a) now, and then at the budget for January.';
    const pieces = text.split(/(?=[ \n[(*])/);
    const { chunks, spoken } = chunksOf(pieces);
    expect(spoken).toBe('Great news. Let us look at the campaign figures now, and then at the budget for January.');
    expect(chunks.join('')).toBe(spoken);
    expect(wholeWords(chunks)).toBe(true);
    expect(chunks.length).toBeLessThanOrEqual(5);
    expect(spoken).not.toMatch(/https|[*[\]]/);
  });

  it('keeps the last word for finish, so the closing message always carries text', () => {
    const chunker = new SpeechChunker(600);
    expect(chunker.push('Thank you. ')).toBe('Thank');
    expect(chunker.push('Bye.\n')).toBe(' you.');
    expect(chunker.finish()).toBe(' Bye.');
  });

  it('stops at the length bound, at a word, and sends nothing past it', () => {
    const words = Array.from({ length: 60 }, (_, index) => ` word${index}`);
    const chunker = new SpeechChunker(100);
    const sent = words.map((word) => chunker.push(word)).join('');
    expect(chunker.atLimit).toBe(true);
    expect(chunker.spoken).toBe(sent);
    expect(sent.length).toBeLessThanOrEqual(100);
    expect(sent.length).toBeGreaterThan(90);
    expect(sent).toMatch(/word\d+$/);
    expect(words.join('').trim().startsWith(sent)).toBe(true);
    expect(chunker.finish()).toBe('');
  });
});
