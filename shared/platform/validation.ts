import type { z } from 'zod';
import type { IssueDetail } from './errors';

/** Converts zod issues into the `details` items of the error envelope. */
export function toIssueDetails(issues: readonly z.core.$ZodIssue[]): IssueDetail[] {
  return issues.map((issue) => {
    const detail: IssueDetail = {
      code: issue.code,
      message: issue.message,
      path: issue.path.map(String),
    };
    if ('expected' in issue && issue.expected !== undefined) detail.expected = String(issue.expected);
    const received = (issue as { received?: unknown }).received;
    if (received !== undefined) detail.received = String(received);
    return detail;
  });
}

/** A short human sentence naming the first problem, for the envelope's `message`. */
export function describeFirstIssue(issues: readonly z.core.$ZodIssue[]): string {
  const first = issues[0];
  if (!first) return 'The request is invalid.';
  const path = first.path.length > 0 ? first.path.map(String).join('.') : 'body';
  return `${path}: ${first.message}`;
}
