import { join } from 'node:path';
import * as z from 'zod/mini';
import { serveReference } from '../../shared/api/reference';
import { loggerOf } from '../../shared/composition/adapters';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { Settings } from '../../shared/composition/settings';
import { readConfig } from '../../shared/platform/config';
import { withMiddleware } from '../../shared/platform/handler-chain';
import { errorEnvelope } from '../../shared/platform/http/middleware';
import type { HttpEvent, HttpResult } from '../../shared/platform/http/types';

/** The repository root, where the local runtime finds the files (in Lambda their settings name them in the bundle). */
const REPOSITORY_ROOT = join(import.meta.dirname, '..', '..');

/** The committed OpenAPI document (`npm run docs` writes it). */
export const DEFAULT_OPENAPI_DOCUMENT_FILE = join(REPOSITORY_ROOT, 'docs', 'openapi.json');
/** Redoc's standalone bundle, as the installed @redocly/cli ships it. */
export const DEFAULT_REDOC_SCRIPT_FILE = join(REPOSITORY_ROOT, 'node_modules', '@redocly', 'cli', 'lib', 'chunks', 'redoc.standalone.js');

/**
 * GET /openapi.json, /docs and /docs/redoc.standalone.js: the API
 * reference, without a key. It serves the committed docs/openapi.json
 * (OPENAPI_DOCUMENT_FILE) and Redoc's script (REDOC_SCRIPT_FILE), both
 * carried in its bundle; no generator runs here. No table, queue or secret.
 */
export function build(settings: Settings) {
  const logger = loggerOf('apiDocsApi', settings);
  const { OPENAPI_DOCUMENT_FILE, REDOC_SCRIPT_FILE } = readConfig(
    { OPENAPI_DOCUMENT_FILE: z.optional(z.string()), REDOC_SCRIPT_FILE: z.optional(z.string()) },
    settings,
  );
  const serve = serveReference({
    document: OPENAPI_DOCUMENT_FILE ?? DEFAULT_OPENAPI_DOCUMENT_FILE,
    script: REDOC_SCRIPT_FILE ?? DEFAULT_REDOC_SCRIPT_FILE,
  });
  return withMiddleware<HttpEvent, HttpResult>(async (event) => serve(event.rawPath, event.headers ?? {}), [errorEnvelope({ logger })]);
}

export const handler = lambdaEntry(build);
