import * as z from 'zod';
import { buildOpenApiDocument } from '../../../infra/api-docs/document';
import { EVENTS, OPERATIONS } from '../../../infra/api-docs/operations';
import { ERROR_CODE_MEANINGS, codesOfStatus, errorSchemaName, errorStatuses } from '../../../shared/api/openapi/errors';
import { webhookEvent } from '../../../shared/api/openapi/operation';
import { API_REFERENCE_PATHS } from '../../../shared/api/reference';
import { ROUTES } from '../../../shared/catalogue/routes';
import { deepResearchRequestSchema } from '../../../shared/deep-research/openapi';
import { parseDeepResearchRequest } from '../../../shared/deep-research/schema';
import { leadFollowUpRequestSchema } from '../../../shared/lead-follow-up/openapi';
import { structureSchema } from '../../../shared/lead-follow-up/schema';
import { HTTP_STATUS_OF, type ErrorCode } from '../../../shared/platform/errors';
import { stakeholderRequestSchema } from '../../../shared/stakeholder-coordination/openapi';
import { requestSchema as stakeholderSchema } from '../../../shared/stakeholder-coordination/schema';
import { registrationSchema, rotationSchema } from '../../../shared/webhooks/endpoints-api';
import { EVENT_TYPES } from '../../../shared/webhooks/event-types';
import { secretRotationSchema, webhookRegistrationSchema } from '../../../shared/webhooks/openapi';

/**
 * The reference covers the service exactly: one documented operation per
 * route of the catalogue (so a route added without its `openapi.ts` entry
 * fails here), every error code under its status, and request schemas that
 * name the fields the features' own parsers read.
 */
const document = buildOpenApiDocument();
const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

type Operation = { operationId?: string; responses: Record<string, { content?: Record<string, { schema?: unknown; example?: unknown }> }> };
const operationsOf = (): [string, Operation][] =>
  Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>)
      .filter(([method]) => ['get', 'head', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => [key(method, path), operation] as [string, Operation]),
  );

describe('every route is documented', () => {
  it('documents each route of the catalogue once, and nothing else', () => {
    const routes = ROUTES.map((route) => key(route.method, route.path)).sort();
    const documented = OPERATIONS.map((operation) => key(operation.method, operation.path)).sort();
    expect(documented).toEqual(routes);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('puts every documented operation in the document, under its route', () => {
    expect(operationsOf().map(([route]) => route).sort()).toEqual(ROUTES.map((route) => key(route.method, route.path)).sort());
  });

  it('names each operation once (the typed client and generators call it by this name)', () => {
    const ids = operationsOf().map(([, operation]) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('serves the reference on routes of the catalogue', () => {
    for (const path of Object.values(API_REFERENCE_PATHS)) expect(ROUTES).toContainEqual({ method: 'GET', path, function: 'apiDocsApi' });
  });

  it('puts every operation in a described section', () => {
    const sections = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description]));
    for (const [route, operation] of operationsOf()) {
      const [tag] = (operation as unknown as { tags: string[] }).tags;
      expect([route, sections.get(tag!)?.length]).toEqual([route, expect.any(Number)]);
    }
  });

  it('asks for a key on every /api route and on no other', () => {
    for (const [route, operation] of operationsOf()) {
      const { security } = operation as { security?: unknown[] };
      if (route.split(' ')[1]!.startsWith('/api/')) expect([route, security]).toEqual([route, [{ bearerAuth: [] }, { apiKeyHeader: [] }]]);
      else expect([route, security]).toEqual([route, []]);
    }
  });
});

describe('errors', () => {
  const schemas = document.components?.schemas as Record<string, { properties: { error: { properties: { code: { enum: string[] } } } } }>;

  it('has an envelope per status, holding exactly the codes of that status', () => {
    for (const status of errorStatuses()) {
      expect([status, schemas[errorSchemaName(status)]!.properties.error.properties.code.enum]).toEqual([status, codesOfStatus(status)]);
    }
  });

  it('lists every code of shared/platform/errors.ts, each under its own status, with a meaning', () => {
    const listed = errorStatuses().flatMap((status) => schemas[errorSchemaName(status)]!.properties.error.properties.code.enum);
    expect(listed.sort()).toEqual(Object.keys(HTTP_STATUS_OF).sort());
    for (const code of Object.keys(HTTP_STATUS_OF) as ErrorCode[]) expect(ERROR_CODE_MEANINGS[code].length).toBeGreaterThan(10);
  });

  it("answers each error status of an operation with that status's envelope", () => {
    for (const [route, operation] of operationsOf()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^[45]\d\d$/.test(status) || status === '429') continue;
        expect([route, status, response.content?.['application/json']?.schema]).toEqual([route, status, { $ref: `#/components/schemas/${errorSchemaName(Number(status))}` }]);
      }
    }
  });

  it('documents 401 on every /api route, and a default error answer everywhere', () => {
    for (const [route, operation] of operationsOf()) {
      expect([route, 'default' in operation.responses]).toEqual([route, true]);
      if (route.split(' ')[1]!.startsWith('/api/')) expect([route, '401' in operation.responses]).toEqual([route, true]);
    }
  });
});

describe('requests: the features\' own fields', () => {
  it('lead follow-up: the fields of the structure schema, ids as UUIDs', () => {
    expect(Object.keys(leadFollowUpRequestSchema.shape).sort()).toEqual(Object.keys(structureSchema.shape).sort());
  });

  it('stakeholder coordination: the fields of its request schema', () => {
    expect(Object.keys(stakeholderRequestSchema.shape).sort()).toEqual(Object.keys(stakeholderSchema.shape).sort());
  });

  it('deep research: exactly the fields the parser accepts, each as the parser reads it', () => {
    const example = { operation_type: 'custom_search', query: 'AI agents', date_from: '2026-11-01', date_to: '2026-11-23', sources: ['techcrunch.com'], keywords: ['pricing'], max_results: 10, include_content_analysis: true, analysis_depth: 'advanced' };
    expect(Object.keys(deepResearchRequestSchema.shape).sort()).toEqual(Object.keys(example).sort());
    expect(parseDeepResearchRequest(example)).toEqual(deepResearchRequestSchema.parse(example));
    expect(() => parseDeepResearchRequest({ ...example, extra: 1 })).toThrow();
    expect(deepResearchRequestSchema.safeParse({ ...example, extra: 1 }).success).toBe(false);
  });
});

describe('requests: the webhook routes', () => {
  it('registration: exactly the fields and limits endpoints-api.ts checks', () => {
    expect(Object.keys(webhookRegistrationSchema.shape).sort()).toEqual(Object.keys(registrationSchema.shape).sort());
    const good = { url: 'https://crm.example.com/hooks', events: ['command.completed', '*'], description: 'CRM sync' };
    for (const body of [good, { url: 'https://crm.example.com/hooks' }, { ...good, events: [] }, { ...good, events: ['nope'] }, { ...good, extra: 1 }, { ...good, description: 'x'.repeat(501) }]) {
      expect([body, webhookRegistrationSchema.safeParse(body).success]).toEqual([body, registrationSchema.safeParse(body).success]);
    }
  });

  it('rotation: exactly the field and limits endpoints-api.ts checks', () => {
    for (const body of [{}, { previous_secret_expires_in: 0 }, { previous_secret_expires_in: 86_400 }, { previous_secret_expires_in: 86_401 }, { previous_secret_expires_in: 1.5 }, { extra: 1 }]) {
      expect([body, secretRotationSchema.safeParse(body).success]).toEqual([body, rotationSchema.safeParse(body).success]);
    }
  });
});

describe('examples', () => {
  it('every request example is a valid request, and every response example fits its schema', () => {
    let checked = 0;
    for (const operation of OPERATIONS) {
      const { route } = operation;
      const body = route.request?.body?.content['application/json'];
      if (body && 'schema' in body && body.example !== undefined) {
        expect([route.operationId, (body.schema as z.ZodType).safeParse(body.example).error?.issues]).toEqual([route.operationId, undefined]);
        checked += 1;
      }
      for (const [status, response] of Object.entries(route.responses)) {
        const json = 'content' in response ? response.content?.['application/json'] : undefined;
        if (!json || !('schema' in json) || json.example === undefined || !(json.schema instanceof z.ZodType)) continue;
        expect([route.operationId, status, json.schema.safeParse(json.example).error?.issues]).toEqual([route.operationId, status, undefined]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });
});

describe('webhook events', () => {
  it('documents an event as a signed POST of {id, type, created_at, data} under `webhooks`', () => {
    const event = webhookEvent({ type: 'command.completed', summary: 'A command completed', description: 'Sent once.', data: z.object({ command: z.object({ command_id: z.string() }) }) });
    const withEvent = buildOpenApiDocument(OPERATIONS, [event]);
    const post = (withEvent.webhooks as Record<string, { post: { operationId: string; parameters: { name: string; in: string; required: boolean }[] } }>)['command.completed']!.post;
    expect(post.operationId).toBe('onCommandCompleted');
    expect(post.parameters).toContainEqual(expect.objectContaining({ name: 'Switchboard-Signature', in: 'header', required: true }));
    expect(withEvent.tags?.map((tag) => tag.name)).toContain('Webhook events');
    expect(buildOpenApiDocument(OPERATIONS, []).tags?.map((tag) => tag.name)).not.toContain('Webhook events');
  });

  it('documents every event type an endpoint may subscribe to, and no other', () => {
    expect(EVENTS.map((event) => event.type).sort()).toEqual([...EVENT_TYPES].sort());
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual([...EVENT_TYPES].sort());
    expect(document.tags?.map((tag) => tag.name)).toContain('Webhook events');
  });
});
