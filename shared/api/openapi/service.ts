import * as z from 'zod';
import { API_REFERENCE_PATHS } from '../reference';
import { publicOperation, type DocumentedOperation } from './operation';

const SERVICE_TAG = { name: 'Service', description: 'Health and this reference; no API key.' };

const health = z.object({ status: z.literal('ok') });

/** Routes without a key that say how the service is: health, and this reference itself. */
export const SERVICE_OPERATIONS: readonly DocumentedOperation[] = [
  publicOperation({
    method: 'GET',
    path: '/health',
    operationId: 'getHealth',
    tag: SERVICE_TAG,
    summary: 'Health',
    description: 'Answers without a key, for load balancers and start-up checks.',
    errors: [],
    answers: { 200: { description: 'The service answers.', schema: health, example: { status: 'ok' } } },
  }),
  publicOperation({
    method: 'HEAD',
    path: '/health',
    operationId: 'headHealth',
    tag: SERVICE_TAG,
    summary: 'Health (headers only)',
    description: 'GET /health without a body.',
    errors: [],
    answers: { 200: { description: 'The service answers.' } },
  }),
  publicOperation({
    method: 'GET',
    path: API_REFERENCE_PATHS.document,
    operationId: 'getOpenApiDocument',
    tag: SERVICE_TAG,
    summary: 'This reference (OpenAPI 3.1)',
    description:
      'The OpenAPI 3.1 document of this deployment, without a key: point a client generator, Postman or an HTTP client at it. ' +
      'It is `docs/openapi.json` of the deployed version (`npm run docs` writes it).',
    errors: [],
    answers: {
      200: {
        description: 'The OpenAPI document.',
        schema: z.object({ openapi: z.string().meta({ example: '3.1.0' }) }).catchall(z.unknown()),
      },
    },
  }),
  publicOperation({
    method: 'GET',
    path: API_REFERENCE_PATHS.page,
    operationId: 'getApiReferencePage',
    tag: SERVICE_TAG,
    summary: 'This reference as a page',
    description: `The reference rendered by Redoc, served from this service (no CDN): the page loads ${API_REFERENCE_PATHS.script} and ${API_REFERENCE_PATHS.document}.`,
    errors: [],
    answers: { 200: { description: 'An HTML page.', content: { 'text/html': { schema: z.string() } } } },
  }),
  publicOperation({
    method: 'GET',
    path: API_REFERENCE_PATHS.script,
    operationId: 'getApiReferenceScript',
    tag: SERVICE_TAG,
    summary: "The reference page's script",
    description: "Redoc's standalone bundle (an ES module), as the installed `@redocly/cli` ships it; cached by browsers.",
    errors: [],
    answers: { 200: { description: 'JavaScript.', content: { 'text/javascript': { schema: z.string() } } } },
  }),
];
