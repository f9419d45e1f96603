import { readFileSync } from 'node:fs';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { MAX_BODY_BYTES, MAX_WAIT_SECONDS } from '../../shared/catalogue/limits';
import { registerComponents } from '../../shared/api/openapi/components';
import { readableByGenerator } from '../../shared/api/openapi/mini-schemas';
import { codesOfStatus, errorStatuses } from '../../shared/api/openapi/errors';
import type { DocumentedEvent, DocumentedOperation, Tag } from '../../shared/api/openapi/operation';
import { EVENTS, OPERATIONS } from './operations';

/** The service's version (package.json), the document's `info.version`. */
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The OpenAPI document, as generated: a plain JSON object. */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** The codes of each status, as a Markdown table (from shared/platform/errors.ts). */
function errorTable(): string {
  const rows = errorStatuses().map(
    (status) =>
      `| ${status} | ${codesOfStatus(status)
        .map((code) => `\`${code}\``)
        .join(', ')} |`,
  );
  return ['| HTTP | codes |', '|---|---|', ...rows].join('\n');
}

/** The document's introduction: what every route has in common. */
function overview(): string {
  return `Switchboard runs agent operations for marketing and sales teams. Every operation is a **command**: a POST records it and answers \`202 Accepted\` at once with \`Location: /api/commands/{id}\`; queue-driven workers carry it out; \`GET /api/commands/{id}\` reads it at any time.

## Authentication

Every \`/api/*\` route needs an API key, as \`Authorization: Bearer KEY\` or \`x-api-key: KEY\`. Without a valid key the answer is 401 \`UNAUTHORIZED\`, whether or not the route exists. A key belongs to one tenant and covers a list of its sites: a site outside the list answers 403 \`FORBIDDEN\`, a site that exists nowhere 404 \`SITE_NOT_FOUND\`. A command belongs to the tenant whose key created it; another tenant's command reads as 404 \`COMMAND_NOT_FOUND\`. \`/health\`, this reference and the provider webhooks need no key.

## Waiting for a result

Send \`Prefer: wait=N\` (seconds, at most ${MAX_WAIT_SECONDS}) with a POST to wait for the command to end in the same request: the answer is then \`200\` with the full result, or the error envelope of the command's failure, with \`Preference-Applied: wait=N\`; if the time runs out it is the usual \`202\`. \`GET /api/commands/{id}\` takes the same header. Every answer about a command carries \`Location\` and, where there is a \`data\`, \`data.command_id\`.

## Retrying safely

Send an \`Idempotency-Key\` with a POST: within 24 hours the same key and body answer with the same command (no second job, no second call); the same key with another body answers 409 \`IDEMPOTENCY_CONFLICT\`. Keys are scoped per tenant and operation.

## Errors

Every failure of every route has one envelope, \`{"success": false, "error": {"code", "message", "details"?}}\`, whose HTTP status is decided by its code:

${errorTable()}

400 codes are final: fix the request. 500 codes are worth retrying, with back-off. \`details\` lists zod-style issues \`{code, message?, expected?, received?, path}\`, except for \`NO_VALID_CHANNELS_FOR_LEAD\`, whose \`details\` is an object. Deep research adds \`processing_time_ms\` beside \`error\`. A path no route has answers 404 \`NOT_FOUND\` (after the key check under \`/api\`); a known path asked with another method answers 405 \`METHOD_NOT_ALLOWED\` with an \`Allow\` header. Bodies over ${MAX_BODY_BYTES / 1024} KiB answer 413 \`PAYLOAD_TOO_LARGE\`. Request bodies under \`/api\` are JSON: a body whose \`Content-Type\` is not \`application/json\` (a UTF-8 \`charset\` and \`application/*+json\` types are taken) answers 415 \`UNSUPPORTED_MEDIA_TYPE\` and changes nothing; a request without a body needs no \`Content-Type\`.

## Rate limits

Each route is throttled by API Gateway per environment; over the limit the gateway answers 429 before any function runs. Retry after a pause, with back-off.

## Typed client

\`docs/switchboard-api.d.ts\` (generated from this document by openapi-typescript) types every path, request and answer for \`openapi-fetch\`; see the README.`;
}

/**
 * Builds the OpenAPI 3.1 document from the documented operations (each
 * feature's `openapi.ts`), the shared components (error envelopes from
 * shared/platform/errors.ts, headers, parameters, security schemes) and the
 * overview. Deterministic: the same sources give the same document, so the
 * committed docs/openapi.json can be checked against it.
 */
export function buildOpenApiDocument(
  operations: readonly DocumentedOperation[] = OPERATIONS,
  events: readonly DocumentedEvent[] = EVENTS,
): OpenApiDocument {
  readableByGenerator();
  const registry = new OpenAPIRegistry();
  const schemas = registerComponents(registry);
  for (const operation of operations) registry.registerPath(operation.route);
  for (const event of events) registry.registerWebhook(event.route);
  const generator = new OpenApiGeneratorV31([...registry.definitions, ...schemas.map((schema) => ({ type: 'schema' as const, schema }))]);
  const document = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Switchboard API',
      version: VERSION,
      description: overview(),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      { url: 'http://127.0.0.1:3000', description: '`npm start` on this machine (HOST and PORT change it)' },
      {
        url: 'https://{apiId}.execute-api.{region}.amazonaws.com',
        description: 'A deployed environment: the `ApiUrl` output of its stack',
        variables: { apiId: { default: 'abc123defg', description: 'The HTTP API id' }, region: { default: 'eu-west-1' } },
      },
    ],
    tags: sectionsOf([...operations, ...events]),
  });
  return document;
}

/** The sections of the reference, in the order their first entry comes; one tag name, one description. */
function sectionsOf(entries: readonly { tag: Tag }[]): Tag[] {
  const sections = new Map<string, Tag>();
  for (const { tag } of entries) {
    const known = sections.get(tag.name);
    if (known && known.description !== tag.description)
      throw new Error(`Two descriptions of the section "${tag.name}": declare its Tag once and reuse it`);
    sections.set(tag.name, { ...tag });
  }
  return [...sections.values()];
}

/** The document as docs/openapi.json holds it: two-space JSON and a final newline. */
export function serializeDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
