import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj, Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import { AppError, toErrorInfo, type ErrorCode } from '../errors';
import { JsonDocumentError, parseJsonDocument } from '../json';
import { describeError } from '../logger';
import { errorResponse } from './responses';
import type { HttpEvent, HttpResult } from './types';

type HttpRequest = Request<HttpEvent, HttpResult, Error, Context>;

/**
 * Last line of defence (attach it first): turns any error into the envelope.
 * AppErrors keep their code; anything else becomes SYSTEM_ERROR with a
 * generic message, its cause going to the log only.
 */
export function errorEnvelope(options: {
  logger: Logger;
  extra?: (request: HttpRequest) => Record<string, unknown>;
}): MiddlewareObj<HttpEvent, HttpResult> {
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
export function bodySizeLimit(maxBytes: number): MiddlewareObj<HttpEvent, HttpResult> {
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

/**
 * Parses the JSON body (any content type is accepted as JSON), reporting a
 * missing, malformed or too deeply nested body with the route's own code.
 * Depth is checked before parsing, so nothing downstream (validation,
 * hashing, storage) can recurse until the stack overflows.
 */
export function jsonBody(errorCode: ErrorCode, maxDepth: number): MiddlewareObj<HttpEvent, HttpResult> {
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
