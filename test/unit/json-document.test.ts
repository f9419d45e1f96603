import { jsonDepthExceeds, JsonDocumentError, parseJsonDocument } from '../../shared/platform/json';

describe('parseJsonDocument', () => {
  it('parses documents within the depth limit', () => {
    expect(parseJsonDocument('{"a":[{"b":[1]}]}', 4)).toEqual({ a: [{ b: [1] }] });
  });

  it('refuses a document one level deeper than the limit, without recursing', () => {
    expect(() => parseJsonDocument('{"a":[{"b":[1]}]}', 3)).toThrow(expect.objectContaining({ reason: 'too_deep' }));
    expect(() => parseJsonDocument('['.repeat(1_000_000) + ']'.repeat(1_000_000), 64)).toThrow(JsonDocumentError);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthExceeds(JSON.stringify({ text: '[[[[{{{{"\\"[[[[' }), 1)).toBe(false);
    expect(parseJsonDocument(JSON.stringify({ text: '"[[[[' }), 1)).toEqual({ text: '"[[[[' });
  });

  it('reports text that is not JSON as a syntax problem', () => {
    expect(() => parseJsonDocument('{"a":', 64)).toThrow(expect.objectContaining({ reason: 'syntax' }));
  });
});
