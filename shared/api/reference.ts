import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { errorResponse } from '../platform/http/responses';
import type { HttpResult } from '../platform/http/types';

/** Where the API reference is served (routes of the catalogue, outside /api, without a key). */
export const API_REFERENCE_PATHS = {
  /** The OpenAPI document. */
  document: '/openapi.json',
  /** The HTML page. */
  page: '/docs',
  /** The page's script: Redoc's standalone bundle. */
  script: '/docs/redoc.standalone.js',
} as const;

/** What the reference routes serve: the committed OpenAPI document and Redoc's script, read once. */
export interface ReferenceFiles {
  /** docs/openapi.json, as text. */
  document: string;
  /** Redoc's standalone ES module, as text. */
  script: string;
}

/** The inline module that renders the document into the page. */
const RENDER_SCRIPT =
  `import { init } from '${API_REFERENCE_PATHS.script}';\n` +
  `init('${API_REFERENCE_PATHS.document}', { disableTelemetry: true, expandResponses: '200,202' }, document.getElementById('reference'));\n`;

/** The page's Content-Security-Policy: nothing but this origin's script and document, and the one inline module above. */
function contentSecurityPolicy(): string {
  const inline = `'sha256-${createHash('sha256').update(RENDER_SCRIPT).digest('base64')}'`;
  return [
    "default-src 'self'",
    `script-src 'self' ${inline}`,
    // Redoc styles its components at run time (styled-components).
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The HTML page of the reference. */
export function referencePage(title: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<link rel="modulepreload" href="${API_REFERENCE_PATHS.script}">`,
    '<style>body { margin: 0; }</style>',
    '</head>',
    '<body>',
    `<noscript>This page needs JavaScript. The OpenAPI document itself is at <a href="${API_REFERENCE_PATHS.document}">${API_REFERENCE_PATHS.document}</a>.</noscript>`,
    '<div id="reference"></div>',
    `<script type="module">${RENDER_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The title of the document, for the page (`Switchboard API` when it has none). */
function titleOf(document: string): string {
  try {
    const parsed = JSON.parse(document) as { info?: { title?: unknown } };
    return typeof parsed.info?.title === 'string' ? parsed.info.title : 'Switchboard API';
  } catch {
    return 'Switchboard API';
  }
}

/** A strong validator of a body: browsers revalidate with it instead of downloading again. */
function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** A text answer, or 304 when the caller already holds this version. */
function textAnswer(
  body: string,
  contentType: string,
  cacheControl: string,
  ifNoneMatch: string | undefined,
  extra: Record<string, string> = {},
): HttpResult {
  const etag = etagOf(body);
  const headers = { 'content-type': contentType, 'cache-control': cacheControl, etag, 'x-content-type-options': 'nosniff', ...extra };
  if (ifNoneMatch?.split(',').some((tag) => tag.trim() === etag)) return { statusCode: 304, headers, body: '' };
  return { statusCode: 200, headers, body };
}

/**
 * Use case: the three reference routes (`GET /openapi.json`, `GET /docs`,
 * `GET /docs/redoc.standalone.js`), answered from files read once. Any other
 * path answers 404 NOT_FOUND. Short caching: a deployment changes the
 * document, and the ETag makes a check cheap.
 */
export function referenceAnswers(
  files: ReferenceFiles,
): (path: string, headers: Readonly<Record<string, string | undefined>>) => HttpResult {
  const page = referencePage(titleOf(files.document));
  const csp = contentSecurityPolicy();
  return (path, headers) => {
    const ifNoneMatch = headers['if-none-match'];
    switch (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path) {
      case API_REFERENCE_PATHS.document:
        return textAnswer(files.document, 'application/json; charset=utf-8', 'public, max-age=300', ifNoneMatch, {
          'access-control-allow-origin': '*',
        });
      case API_REFERENCE_PATHS.page:
        return textAnswer(page, 'text/html; charset=utf-8', 'public, max-age=300', ifNoneMatch, {
          'content-security-policy': csp,
          'referrer-policy': 'no-referrer',
        });
      case API_REFERENCE_PATHS.script:
        return textAnswer(files.script, 'text/javascript; charset=utf-8', 'public, max-age=86400', ifNoneMatch);
      default:
        return errorResponse({ code: 'NOT_FOUND', message: 'No such page of the API reference.' });
    }
  };
}

/** Where the reference's files are: the OpenAPI document and Redoc's script. */
export interface ReferenceFilePaths {
  document: string;
  script: string;
}

/**
 * Use case: the reference routes, reading their files on the first request
 * (not at cold start: a function that never serves the page never reads
 * 2 MB of script). A failed read is not remembered, so the next request
 * tries again; it answers SYSTEM_ERROR meanwhile.
 */
export function serveReference(
  paths: ReferenceFilePaths,
): (path: string, headers: Readonly<Record<string, string | undefined>>) => Promise<HttpResult> {
  let answers: Promise<ReturnType<typeof referenceAnswers>> | undefined;
  const load = () => {
    answers ??= Promise.all([readFile(paths.document, 'utf8'), readFile(paths.script, 'utf8')]).then(([document, script]) =>
      referenceAnswers({ document, script }),
    );
    answers.catch(() => (answers = undefined));
    return answers;
  };
  return async (path, headers) => (await load())(path, headers);
}
