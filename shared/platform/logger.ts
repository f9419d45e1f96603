import { LogFormatter, LogItem, Logger, LogLevelThreshold } from '@aws-lambda-powertools/logger';
import type { ConstructorOptions, LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import { ConfigError } from './config';

/** `json`: one Powertools JSON object per line (Lambda, CloudWatch). `pretty`: one readable line (`npm start`). */
export type LogFormat = 'json' | 'pretty';

/** How a logger prints; each field overrides its environment variable. */
export interface LoggerOptions {
  /** `DEBUG`, `INFO`, `WARN`, `ERROR` or `SILENT`. @default LOG_LEVEL, else `INFO` */
  level?: string;
  /** @default LOG_FORMAT, else `json` */
  format?: LogFormat;
}

type Level = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';

/**
 * One logger per function, built at cold start: Powertools JSON lines, or
 * readable lines under `format: 'pretty'`. Without options it reads
 * `LOG_LEVEL` and `LOG_FORMAT` from the environment. Values that look like
 * credentials never reach a pretty line (see `redact`); JSON callers pass
 * redacted values.
 */
export function createLogger(serviceName: string, options: LoggerOptions = {}): Logger {
  const logLevel = (options.level ?? process.env.LOG_LEVEL ?? 'INFO').toUpperCase() as Level;
  const format = options.format ?? logFormatFromEnv(process.env.LOG_FORMAT);
  if (format === 'pretty') return new PrettyLogger({ serviceName, logLevel, logFormatter: new PrettyLogFormatter() });
  return new Logger({ serviceName, logLevel });
}

function logFormatFromEnv(value: string | undefined): LogFormat {
  const format = value?.trim().toLowerCase() || 'json';
  if (format !== 'json' && format !== 'pretty')
    throw new ConfigError(`Invalid configuration: LOG_FORMAT must be json or pretty (got ${value})`);
  return format;
}

/**
 * A Powertools log formatter for a terminal: keeps the time (local
 * `HH:MM:SS`), the level, the message and the caller's keys, and drops the
 * Lambda bookkeeping (service, cold start, ARN, sampling rate).
 */
export class PrettyLogFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, additionalLogAttributes: LogAttributes): LogItem {
    return new LogItem({
      attributes: { time: clockTime(attributes.timestamp), level: attributes.logLevel, message: attributes.message },
    }).addAttributes(additionalLogAttributes);
  }
}

/** A Powertools Logger that prints the items of its formatter as readable lines (see `renderPrettyLine`), not JSON. */
class PrettyLogger extends Logger {
  protected override printLog(logLevel: number, log: LogItem): void {
    log.prepareForPrint();
    const stream = logLevel >= LogLevelThreshold.WARN ? process.stderr : process.stdout;
    stream.write(`${renderPrettyLine(log.getAttributes(), { color: stream.isTTY === true })}\n`);
  }

  protected override createLogger(options: ConstructorOptions = {}): Logger {
    return new PrettyLogger({ ...options, logRecordOrder: undefined, logFormatter: new PrettyLogFormatter() });
  }
}

/** Keys of a job's log that only matter in CloudWatch. */
const JOB_BOOKKEEPING = new Set(['jobType', 'commandId', 'outcome', 'durationMs', 'messageId', 'queue', 'attempt']);
const COLORS: Record<string, string> = { WARN: '\x1b[33m', ERROR: '\x1b[31m', CRITICAL: '\x1b[31m' };

/**
 * One readable line for the attributes `PrettyLogFormatter` produced:
 * `HH:MM:SS job <jobType> <commandId> <outcome> <ms>ms` for a finished job
 * (`Job done`), `HH:MM:SS LEVEL message key=value…` for anything else.
 * Warnings are yellow and errors red when `color` is set. Credentials are masked.
 */
export function renderPrettyLine(attributes: LogAttributes, options: { color: boolean }): string {
  const { time, level, message, ...rest } = attributes;
  const levelName = String(level ?? 'INFO');
  let line: string;
  if (message === 'Job done' && typeof rest.jobType === 'string') {
    const extras = Object.entries(rest).filter(([key]) => !JOB_BOOKKEEPING.has(key));
    const duration = typeof rest.durationMs === 'number' ? `${Math.round(rest.durationMs)}ms` : undefined;
    line = [time, 'job', rest.jobType, rest.commandId, rest.outcome, duration, ...extras.map(keyValue)]
      .filter((part) => part !== undefined)
      .join(' ');
  } else {
    line = [time, levelName, message, ...Object.entries(rest).map(keyValue)].join(' ');
  }
  line = redact(line);
  const color = options.color ? COLORS[levelName] : undefined;
  return color ? `${color}${line}\x1b[0m` : line;
}

function keyValue([key, value]: [string, unknown]): string {
  return `${key}=${renderValue(value)}`;
}

function renderValue(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(`${value.name}: ${value.message}`);
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'object' && value !== null) {
    try {
      return JSON.stringify(value, (_key, inner: unknown) =>
        inner instanceof Error ? `${inner.name}: ${inner.message}` : typeof inner === 'bigint' ? String(inner) : inner,
      );
    } catch {
      return '[unprintable]';
    }
  }
  return String(value);
}

/** `HH:MM:SS` in local time. */
export function clockTime(date: Date): string {
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

const SECRET_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\bsbk_[A-Za-z0-9_-]{8,}/g,
  /\bwhsec_[A-Za-z0-9_-]{8,}/g,
  /([?&](?:key|api_key|token)=)[^&\s]+/gi,
  /(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi,
];

/** Masks anything shaped like a credential in a message bound for a log or an error. */
export function redact(text: string): string {
  return SECRET_PATTERNS.reduce(
    (acc, pattern) =>
      acc.replace(pattern, (match, prefix?: string) =>
        typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}[redacted]` : '[redacted]',
      ),
    text,
  );
}

/** A log-safe summary of an unknown error: name and redacted message, no request objects. */
export function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: redact(error.message) };
  return { name: typeof error, message: redact(String(error)) };
}
