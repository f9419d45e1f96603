import { Logger } from '@aws-lambda-powertools/logger';

/**
 * One structured JSON logger per function, built at cold start. Values that
 * look like credentials are never passed to it: see `redact`.
 */
export function createLogger(serviceName: string, options: { level?: string | undefined } = {}): Logger {
  return new Logger({
    serviceName,
    logLevel: ((options.level ?? process.env.LOG_LEVEL) as 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT' | undefined) ?? 'INFO',
  });
}

const SECRET_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\bsbk_[A-Za-z0-9_-]{8,}/g,
  /([?&](?:key|api_key|token)=)[^&\s]+/gi,
  /(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi,
];

/** Masks anything shaped like a credential in a message bound for a log or an error. */
export function redact(text: string): string {
  return SECRET_PATTERNS.reduce(
    (acc, pattern) => acc.replace(pattern, (match, prefix?: string) => (typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}[redacted]` : '[redacted]')),
    text,
  );
}

/** A log-safe summary of an unknown error: name and redacted message, no request objects. */
export function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: redact(error.message) };
  return { name: typeof error, message: redact(String(error)) };
}
