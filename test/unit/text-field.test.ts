import * as z from 'zod/mini';
import { cleanedText, RAW_SLACK } from '../../shared/platform/text-field';

const issuesOf = (schema: z.ZodMiniType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
};

describe('cleanedText', () => {
  it('cleans control and bidi characters, then trims', () => {
    expect(cleanedText(20).parse('  a\u202Eb\u0007c \n')).toBe('abc');
  });

  it('measures the cleaned value: stray characters and surrounding spaces do not count against the limit', () => {
    expect(cleanedText(3).parse(`   abc\u200F   `)).toBe('abc');
    expect(issuesOf(cleanedText(3), 'abcd')).toEqual([{ path: [], message: 'Too big: expected string to have <=3 characters' }]);
  });

  it('refuses a raw value longer than the limit and its slack before cleaning it, with the same message', () => {
    const raw = ' '.repeat(RAW_SLACK) + 'abcd';
    expect(issuesOf(cleanedText(3), raw)).toEqual([{ path: [], message: 'Too big: expected string to have <=3 characters' }]);
    expect(cleanedText(4).parse(raw)).toBe('abcd');
  });

  it('keeps each field to its own limit when fields share one, or not, in one object', () => {
    const schema = z.object({ a: cleanedText(5), b: cleanedText(5), c: z.optional(cleanedText(2)) });
    expect(schema.parse({ a: ' abcde ', b: 'x', c: 'yz' })).toEqual({ a: 'abcde', b: 'x', c: 'yz' });
    expect(issuesOf(schema, { a: 'abcdef', b: 'abcdefg', c: 'xyz' })).toEqual([
      { path: ['a'], message: 'Too big: expected string to have <=5 characters' },
      { path: ['b'], message: 'Too big: expected string to have <=5 characters' },
      { path: ['c'], message: 'Too big: expected string to have <=2 characters' },
    ]);
    // The API reference reads each field's limit from its schema.
    expect(z.toJSONSchema(schema, { io: 'input' }).properties).toEqual({
      a: { type: 'string', maxLength: 5 },
      b: { type: 'string', maxLength: 5 },
      c: { type: 'string', maxLength: 2 },
    });
  });

  it('refuses what is not a string', () => {
    expect(issuesOf(cleanedText(5), 5)).toEqual([{ path: [], message: 'Invalid input: expected string, received number' }]);
  });
});
