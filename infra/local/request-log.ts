import { clockTime, redact } from '../../shared/platform/logger';

/** One answered HTTP request, as the local gateway saw it. */
export interface RequestRecord {
  at: Date;
  method: string;
  /** The path as requested, without the query string. */
  path: string;
  status: number;
  durationMs: number;
  /** From the answer's `Location: /api/commands/{id}`, when it has one. */
  commandId?: string;
}

/** Where the gateway reports each request. */
export type RequestLog = (request: RequestRecord) => void;

const QUIET_LEVELS = new Set(['ERROR', 'SILENT', 'CRITICAL']);

/**
 * The request log `npm start` uses, from `LOG_LEVEL` and `LOG_FORMAT`: one
 * readable line per request on stdout (a Powertools-like JSON line under
 * `LOG_FORMAT=json`), nothing under `LOG_LEVEL` ERROR or SILENT.
 */
export function requestLogFromEnv(
  env: Record<string, string | undefined>,
  output: { write?: (line: string) => void; color?: boolean } = {},
): RequestLog {
  const write = output.write ?? ((line: string) => process.stdout.write(line));
  if (QUIET_LEVELS.has((env.LOG_LEVEL ?? 'INFO').toUpperCase())) return () => undefined;
  if ((env.LOG_FORMAT ?? '').toLowerCase() === 'json') {
    return (request) =>
      write(
        `${redact(JSON.stringify({ level: 'INFO', message: 'Request', timestamp: request.at.toISOString(), service: 'gateway', ...withoutAt(request) }))}\n`,
      );
  }
  const color = output.color ?? process.stdout.isTTY === true;
  return (request) => write(`${formatRequestLine(request, { color })}\n`);
}

/**
 * `HH:MM:SS POST /api/agents/sales/leadFollowUp 202 12ms <command id>`;
 * with `color`, 4xx answers are yellow and 5xx red. Credentials in the path are masked.
 */
export function formatRequestLine(request: RequestRecord, options: { color: boolean }): string {
  const line = redact(
    [clockTime(request.at), request.method, request.path, request.status, `${Math.round(request.durationMs)}ms`, request.commandId]
      .filter((part) => part !== undefined)
      .join(' '),
  );
  if (!options.color || request.status < 400) return line;
  return `${request.status >= 500 ? '\x1b[31m' : '\x1b[33m'}${line}\x1b[0m`;
}

/** The command id of a `Location: /api/commands/{id}` header. */
export function commandIdOfLocation(location: unknown): string | undefined {
  const match = typeof location === 'string' ? /\/api\/commands\/([^/?#]+)/.exec(location) : null;
  return match?.[1];
}

function withoutAt(request: RequestRecord): Omit<RequestRecord, 'at'> {
  const { at: _at, ...rest } = request;
  return rest;
}
