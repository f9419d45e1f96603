import { USAGE_LEDGER_GRANTS } from './command-start';
import { EVENT_DELIVERY_QUEUE, EVENT_PUBLISHER_TABLE_GRANTS } from './event-publishing';
import type { FeatureCatalogue } from './feature';

/**
 * The kernel's own entries in the service catalogue: reading and erasing a
 * command, the tenant's usage, health, the API reference, the answer to
 * unmatched routes and the janitor. They sit here, beside the gathering, rather than in
 * shared/commands/ or shared/api/: they span both, and the catalogue imports
 * neither (the kernel reads the catalogue, not the other way round).
 * It has no job types: every job type belongs to a feature.
 */
export const KERNEL_CATALOGUE = {
  jobTypes: [],
  functions: [
    {
      id: 'getCommandApi',
      kind: 'api',
      entry: 'functions/api/get-command.ts',
      description: 'GET /api/commands/{id}: read a command of the caller',
      // Long enough for the longest `Prefer: wait` (limits.ts) and a margin.
      timeoutSeconds: 29,
      memoryMb: 256,
      access: {
        // The command, and what it used (USAGE#CMD#<id>).
        table: [{ actions: ['GetItem'], keyPrefixes: ['APIKEY#', 'CMD#', 'USAGE#'] }],
        sendsTo: [],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
    {
      id: 'listCommandsApi',
      kind: 'api',
      entry: 'functions/api/list-commands.ts',
      description: "GET /api/commands: the commands the caller's tenant started, newest first, a page at a time (filters, cursor)",
      // It never waits: a key read and at most 10 index pages (dynamo-listing.ts), each bounded by the SDK's 3 s request timeout;
      // 8 s leaves room for a slow page or two, and keeps its cap small.
      timeoutSeconds: 8,
      memoryMb: 256,
      access: {
        table: [
          { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
          // The tenant's own listing partition (its key names the tenant: the code reads no other).
          { index: 'gsi3', actions: ['Query'], keyPrefixes: ['CMD#TENANT#'] },
        ],
        sendsTo: [],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
    {
      id: 'usageApi',
      kind: 'api',
      entry: 'functions/api/usage.ts',
      description: "GET /api/usage: the caller's tenant's usage totals over a range of days, optionally per day, command type or site",
      // It never waits: a key read and one Query of the tenant's daily totals (a few pages at most for a year), each bounded by
      // the SDK's 3 s request timeout; 8 s leaves room for a slow page, and keeps its cap small.
      timeoutSeconds: 8,
      memoryMb: 256,
      access: {
        table: [
          { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
          // The tenant's own totals partition (its key names the tenant: the code reads no other).
          { actions: ['Query'], keyPrefixes: ['USAGE#'] },
        ],
        sendsTo: [],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
    {
      id: 'deleteCommandApi',
      kind: 'api',
      entry: 'functions/api/delete-command.ts',
      description: 'DELETE /api/commands/{id}: erase a command of the caller, its child phases and what features keep with it',
      // It never waits (no `Prefer: wait`): a few dozen table calls at most (children to depth 4, a sequence's follow-ups,
      // twice), each bounded by the SDK's 3 s request timeout; 8 s leaves room for a slow call or two, and keeps its cap small.
      timeoutSeconds: 8,
      memoryMb: 256,
      access: {
        table: [
          { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
          // The command and its child phases, erased only for the tenant that owns them, each deleted
          // with a small marker left in its place (one transaction) so later jobs for it know it was erased.
          { actions: ['GetItem', 'DeleteItem', 'PutItem'], keyPrefixes: ['CMD#'] },
          // A command erased in progress gives its tenant's in-progress place back; its own usage item goes with it (what it
          // used stays in its tenant's totals).
          { actions: ['UpdateItem', 'DeleteItem'], keyPrefixes: ['USAGE#'] },
          // What a feature keeps with its commands is erased with them: each feature grants its own items (`erasedWithCommand`).
        ],
        sendsTo: [],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
    {
      id: 'healthApi',
      kind: 'api',
      entry: 'functions/api/health.ts',
      description: 'GET /health: liveness, no key',
      // It never waits and does no I/O: answered from memory.
      timeoutSeconds: 3,
      memoryMb: 128,
      access: { table: [], sendsTo: [], sendsToDeadLetterOf: [], secrets: [] },
    },
    {
      id: 'notFoundApi',
      kind: 'api',
      entry: 'functions/api/not-found.ts',
      description: 'Every other route: 401 without a key under /api, 405 for a known path with another method, else 404 NOT_FOUND',
      // It never waits: at most one API key read (cached), bounded by the SDK's 3 s request timeout.
      timeoutSeconds: 5,
      memoryMb: 256,
      access: { table: [{ actions: ['GetItem'], keyPrefixes: ['APIKEY#'] }], sendsTo: [], sendsToDeadLetterOf: [], secrets: [] },
    },
    {
      id: 'commandJanitor',
      kind: 'scheduled',
      entry: 'functions/scheduled/command-janitor.ts',
      description: 'Every 5 minutes: queues again commands whose first job never reached a queue; fails commands stuck past their deadline',
      timeoutSeconds: 60,
      memoryMb: 256,
      scheduleMinutes: 5,
      access: {
        table: [
          { index: 'gsi1', actions: ['Query'], keyPrefixes: ['CMD#IN_PROGRESS#'] },
          // The outbox sweep: events recorded but not yet handed to delivery (then handed on with the publisher's grants).
          { index: 'gsi1', actions: ['Query'], keyPrefixes: ['EVENT#PENDING#'] },
          { actions: ['UpdateItem'], keyPrefixes: ['CMD#'] },
          // A command it fails is told to the tenant's webhooks (command.failed): the event carries the command as GET shows it.
          { actions: ['GetItem'], keyPrefixes: ['CMD#'] },
          ...EVENT_PUBLISHER_TABLE_GRANTS,
          // A command it fails gives back its in-progress place and counts as ended in its tenant's totals.
          ...USAGE_LEDGER_GRANTS,
        ],
        // The queues of the job types that start a command (added by functions.ts; the kernel names no feature's queue), and the delivery
        // queue.
        sendsToEveryStartingQueue: true,
        sendsTo: [EVENT_DELIVERY_QUEUE],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
    {
      id: 'apiDocsApi',
      kind: 'api',
      entry: 'functions/api/api-docs.ts',
      description: 'GET /openapi.json, /docs and its script: the API reference (the committed OpenAPI document, rendered by Redoc), no key',
      // Two files read once, then answers from memory.
      timeoutSeconds: 3,
      memoryMb: 256,
      access: { table: [], sendsTo: [], sendsToDeadLetterOf: [], secrets: [] },
      bundledFiles: [
        { source: 'docs/openapi.json', setting: 'OPENAPI_DOCUMENT_FILE' },
        // Redoc's standalone page script, as @redocly/cli (a devDependency, installed wherever the app is synthesized) ships it.
        { source: 'node_modules/@redocly/cli/lib/chunks/redoc.standalone.js', setting: 'REDOC_SCRIPT_FILE' },
      ],
    },
  ],
  routes: [
    { method: 'GET', path: '/api/commands', function: 'listCommandsApi' },
    { method: 'GET', path: '/api/commands/{id}', function: 'getCommandApi' },
    { method: 'DELETE', path: '/api/commands/{id}', function: 'deleteCommandApi' },
    { method: 'GET', path: '/api/usage', function: 'usageApi' },
    { method: 'GET', path: '/health', function: 'healthApi' },
    { method: 'HEAD', path: '/health', function: 'healthApi' },
    // The API reference, without a key like /health: the OpenAPI document, and the page that renders it (shared/api/reference.ts).
    { method: 'GET', path: '/openapi.json', function: 'apiDocsApi' },
    { method: 'GET', path: '/docs', function: 'apiDocsApi' },
    { method: 'GET', path: '/docs/redoc.standalone.js', function: 'apiDocsApi' },
  ],
} as const satisfies FeatureCatalogue;
