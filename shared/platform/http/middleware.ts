import type { Logger } from '@aws-lambda-powertools/logger';
import { AppError, toErrorInfo, type ErrorCode } from '../errors';
import { JsonDocumentError, parseJsonDocument } from '../json';
import type { Invocation, Middleware } from '../handler-chain';
import { describeError } from '../logger';
import { errorResponse } from './responses';
import type { HttpEvent, HttpResult } from './types';

type HttpRequest = Invocation<HttpEvent, HttpResult>;

/**
 * Last line of defence (attach it first): turns any error into the envelope.
 * AppErrors keep their code; anything else becomes SYSTEM_ERROR with a
 * generic message, its cause going to the log only.
 */
export function errorEnvelope(options: {
  logger: Logger;
  extra?: (request: HttpRequest) => Record<string, unknown>;
}): Middleware<HttpEvent, HttpResult> {
  return {
    onError: async (request) => {
      const error = request.error;
      if (!(error instanceof AppError)) {
        options.logger.error('Unhandled error', { error: describeError(error), path: request.event.rawPath });
      }
      // An error may carry headers of its answer (429's Retry-After).
      const headers = error instanceof AppError && 'headers' in error ? (error.headers as Record<string, string>) : {};
      request.response = errorResponse(toErrorInfo(error), headers, options.extra?.(request) ?? {});
    },
  };
}

/** Refuses bodies larger than `maxBytes` with 413 PAYLOAD_TOO_LARGE, before parsing them. */
export function bodySizeLimit(maxBytes: number): Middleware<HttpEvent, HttpResult> {
  return {
    before: async (request) => {
      const { body, isBase64Encoded } = request.event;
      if (body === undefined) return;
      const bytes = isBase64Encoded ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body, 'utf8');
      if (bytes > maxBytes) {
        throw new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${Math.round(maxBytes / 1024)} KiB.`);
      }
    },
  };
}

/** A media type whose body is JSON: `application/json`, or a structured suffix such as `application/merge-patch+json`. */
const JSON_MEDIA_TYPE = /^application\/(?:json|[a-z0-9!#$&^_.-]+\+json)$/;

/** The charsets a JSON body may declare: JSON exchanged between systems is UTF-8 (RFC 8259, section 8.1). */
const JSON_CHARSETS = new Set(['utf-8', 'utf8']);

/** True when a `Content-Type` value names JSON (case-insensitive, parameters allowed; a charset must be UTF-8). */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const [mediaType = '', ...parameters] = value.split(';');
  if (!JSON_MEDIA_TYPE.test(mediaType.trim().toLowerCase())) return false;
  for (const parameter of parameters) {
    const [name = '', ...rest] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const charset = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (!JSON_CHARSETS.has(charset)) return false;
  }
  return true;
}

/**
 * Refuses a request body that is not declared JSON with 415
 * UNSUPPORTED_MEDIA_TYPE, before it is parsed: a form-encoded or plain-text
 * body is never read as JSON. A request without a body needs no
 * `Content-Type`. Attach it after the size limit (413 comes first).
 */
export function jsonContentType(): Middleware<HttpEvent, HttpResult> {
  return {
    before: async (request) => {
      const { body, headers } = request.event;
      if (body === undefined || body.trim() === '') return;
      const contentType = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
      if (!isJsonContentType(contentType)) {
        throw new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          contentType === undefined
            ? 'The request body has no Content-Type: send it as application/json.'
            : 'The request body must be sent as application/json.',
        );
      }
    },
  };
}

/**
 * Parses the JSON body (its content type is checked before, by {@link jsonContentType}), reporting a
 * missing, malformed or too deeply nested body with the route's own code.
 * Depth is checked before parsing, so nothing downstream (validation,
 * hashing, storage) can recurse until the stack overflows.
 */
export function jsonBody(errorCode: ErrorCode, maxDepth: number): Middleware<HttpEvent, HttpResult> {
  return {
    before: async (request) => {
      const { body, isBase64Encoded } = request.event;
      const text = body !== undefined && isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
      if (text === undefined || text.trim() === '') {
        throw new AppError(errorCode, 'A JSON request body is required.');
      }
      try {
        (request.event as { body: unknown }).body = parseJsonDocument(text, maxDepth);
      } catch (error) {
        if (!(error instanceof JsonDocumentError)) throw error;
        throw new AppError(
          errorCode,
          error.reason === 'too_deep' ? `The request body nests deeper than ${maxDepth} levels.` : 'The request body is not valid JSON.',
        );
      }
    },
  };
}
