import type { ErrorInfo } from '../errors';
import { HTTP_STATUS_OF } from '../errors';
import type { HttpResult } from './types';

const BASE_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } as const;

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return { statusCode, headers: { ...BASE_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/**
 * The error envelope `{success: false, error: {code, message, details?}}` with
 * the status of its code. `extra` adds top-level fields some routes promise
 * (deep research's `processing_time_ms`).
 */
export function errorResponse(error: ErrorInfo, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}): HttpResult {
  return jsonResponse(HTTP_STATUS_OF[error.code], { success: false, error, ...extra }, headers);
}
