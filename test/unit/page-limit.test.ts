import * as z from 'zod/mini';
import { AppError } from '../../shared/platform/errors';
import { pageLimitSchema, readPageLimit } from '../../shared/platform/http/page-limit';
import { describeFirstIssue } from '../../shared/platform/validation';

const query = z.strictObject({ limit: pageLimitSchema(20, 100) });

function refusal(limit: string): string {
  const parsed = query.safeParse({ limit });
  if (parsed.success) throw new Error(`limit ${limit} was accepted as ${parsed.data.limit}`);
  return describeFirstIssue(parsed.error.issues);
}

describe('pageLimitSchema', () => {
  it('reads a whole number from 1 to the most, and the default when absent', () => {
    expect(query.parse({}).limit).toBe(20);
    expect(query.parse({ limit: '1' }).limit).toBe(1);
    expect(query.parse({ limit: '100' }).limit).toBe(100);
  });

  it.each(['abc', '0', '101', '1.5', '-3', ''])('refuses %j in the words every listing uses', (limit) => {
    expect(refusal(limit)).toBe('limit: must be a whole number from 1 to 100');
  });
});

describe('readPageLimit', () => {
  const sizes = { defaultSize: 20, max: 100 };

  it('reads digits from 1 to the most; absent or empty is the default', () => {
    expect(readPageLimit(undefined, sizes, 'VALIDATION_ERROR')).toBe(20);
    expect(readPageLimit('', sizes, 'VALIDATION_ERROR')).toBe(20);
    expect(readPageLimit('7', sizes, 'VALIDATION_ERROR')).toBe(7);
  });

  it.each(['abc', '0', '101', '1.5', '1e1', ' 5'])('refuses %j with the code it is given and the same words', (text) => {
    let thrown: unknown;
    try {
      readPageLimit(text, sizes, 'VALIDATION_ERROR');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'limit: must be a whole number from 1 to 100',
      details: [{ code: 'invalid_value', message: 'must be a whole number from 1 to 100', path: ['limit'] }],
    });
  });
});
