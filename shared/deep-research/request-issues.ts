import type * as z from 'zod';
import { AppError, type IssueDetail } from '../platform/errors';

/**
 * Turns zod's issues with a deep research request into the documented
 * refusal: INVALID_OPERATION for an `operation_type` string outside the
 * operations, else VALIDATION_ERROR with one `{code, message, expected,
 * received, path}` per problem, `path` naming the field (a list item's index
 * is in the message).
 */

/** What the mapper needs to know of the schema. */
export interface RequestShape {
  /** The fields in the order problems are listed (after `operation_type` and unknown fields). */
  fields: readonly string[];
  /** The operations, for `operation_type`. */
  operations: readonly string[];
  /** Longest text of each free-text field (its items' for a list). */
  textLimits: Readonly<Record<string, number>>;
}

/** The JSON type of a value, as zod names received types (`string`, `number`, `float`, `array`, `null`, ...). */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'float';
  return typeof value;
}

/** A value as a problem shows it: short, never the whole of a long input. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

/** A string is shown, any other value by its type. */
const receivedOf = (value: unknown) => (typeof value === 'string' ? shown(value) : typeName(value));

type Problem = Omit<IssueDetail, 'path'>;

const capital = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** The detail of one issue of one field (`label` names it, with a list item's index). */
function problemOf(issue: z.core.$ZodIssue, field: string, label: string, shape: RequestShape): Problem {
  const input = issue.input;
  const prefix = label === field ? '' : `${label}: `;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = issue.expected === 'int' ? 'integer' : String(issue.expected);
      const received = typeName(input);
      return { code: 'invalid_type', message: `${prefix}Expected ${expected}, received ${received}`, expected, received };
    }
    case 'too_big':
    case 'too_small': {
      const bound = Number(issue.code === 'too_big' ? issue.maximum : issue.minimum);
      const side = issue.code === 'too_big' ? 'at most' : 'at least';
      if (issue.origin === 'array') {
        return {
          code: issue.code,
          message: `${prefix}${capital(side)} ${bound} items`,
          expected: `${side} ${bound} items`,
          received: `${(input as unknown[]).length} items`,
        };
      }
      if (issue.origin === 'string') {
        if (issue.code === 'too_small')
          return {
            code: 'too_small',
            message: prefix ? `${label} is blank` : 'Must not be blank',
            expected: 'non-blank text',
            received: shown(input),
          };
        const limit = shape.textLimits[field] ?? bound;
        return {
          code: 'too_big',
          message: `${prefix}Must be at most ${limit} characters`,
          expected: `at most ${limit} characters`,
          received: `${String(input).length} characters`,
        };
      }
      return {
        code: issue.code,
        message: `${prefix}Must be ${side} ${bound}`,
        expected: `a number ${side} ${bound}`,
        received: shown(input),
      };
    }
    case 'invalid_value':
      return {
        code: 'invalid_value',
        message: `${prefix}Must be one of ${issue.values.join(', ')}`,
        expected: issue.values.join(' | '),
        received: receivedOf(input),
      };
    case 'custom': {
      const format = (issue.params as { format?: string } | undefined)?.format;
      if (format === 'date')
        return {
          code: 'invalid_format',
          message: `${prefix}Must be a real calendar date written YYYY-MM-DD`,
          expected: 'YYYY-MM-DD',
          received: receivedOf(input),
        };
      if (format === 'hostname') {
        return {
          code: 'invalid_format',
          message: `${label} must be a hostname such as news.ycombinator.com (no scheme, path or port)`,
          expected: 'hostname',
          received: receivedOf(input),
        };
      }
      // The one object-level rule: the range's order.
      const { date_from: from, date_to: to } = input as { date_from: string; date_to: string };
      return {
        code: 'custom',
        message: `date_from (${from.trim()}) is after date_to (${to.trim()})`,
        expected: `a day on or before date_to (${to.trim()})`,
        received: from.trim(),
      };
    }
    default:
      return { code: issue.code, message: `${prefix}${issue.message}`, received: receivedOf(input) };
  }
}

/** Every detail of the issues, operation_type first, then unknown fields, then the fields in their order. */
function detailsOf(issues: readonly z.core.$ZodIssue[], shape: RequestShape): IssueDetail[] {
  const known = [...shape.fields];
  const details: IssueDetail[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        details.push({
          code: 'unrecognized_keys',
          message: `Unknown field "${shown(key)}"`,
          expected: known.join(' | '),
          received: shown(key),
          path: [key],
        });
      }
      continue;
    }
    const [field, index] = issue.path.map(String);
    if (field === undefined) continue;
    if (field === 'operation_type') {
      const message = issue.input === undefined ? 'operation_type is required' : 'operation_type must be a string';
      details.push({
        code: 'invalid_type',
        message,
        expected: shape.operations.join(' | '),
        received: typeName(issue.input),
        path: [field],
      });
      continue;
    }
    const label = index === undefined ? field : `${field}[${index}]`;
    details.push({ ...problemOf(issue, field, label, shape), path: [field] });
  }
  const rank = (detail: IssueDetail) => {
    const field = detail.path[0]!;
    if (field === 'operation_type') return 0;
    return known.includes(field) ? 2 + known.indexOf(field) : 1;
  };
  return details
    .map((detail, at) => ({ detail, at }))
    .sort((a, b) => rank(a.detail) - rank(b.detail) || a.at - b.at)
    .map(({ detail }) => detail);
}

/** The refusal of a request zod found faults in. */
export function requestRefusal(issues: readonly z.core.$ZodIssue[], shape: RequestShape): AppError {
  const root = issues.find((issue) => issue.path.length === 0 && issue.code === 'invalid_type');
  if (root) {
    const received = typeName(root.input);
    return new AppError('VALIDATION_ERROR', 'The request body must be a JSON object.', [
      { code: 'invalid_type', message: `Expected object, received ${received}`, expected: 'object', received, path: [] },
    ]);
  }
  const operation = issues.find((issue) => issue.path[0] === 'operation_type' && typeof issue.input === 'string');
  if (operation) {
    const names = shape.operations;
    return new AppError('INVALID_OPERATION', `operation_type must be one of ${names.join(', ')} (got "${shown(operation.input)}").`, [
      {
        code: 'invalid_value',
        message: `Must be one of ${names.join(', ')}`,
        expected: names.join(' | '),
        received: shown(operation.input),
        path: ['operation_type'],
      },
    ]);
  }
  const details = detailsOf(issues, shape);
  const summary = details.map((detail) => `${detail.path.join('.') || 'body'}: ${detail.message}`).join('; ');
  return new AppError('VALIDATION_ERROR', `The request is invalid: ${summary}`, details);
}
