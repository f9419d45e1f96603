import { EVENT_DELIVERY_QUEUE, EVENT_PUBLISHER_TABLE_GRANTS } from './event-publishing';
import { JOB_TYPES, type JobQueueId } from './job-types';
import type { SecretId } from './secrets';
import type { TableGrant } from './table';

/** What a function touches, from which its IAM grants are derived. */
export interface FunctionAccess<Queue extends string = JobQueueId> {
  /**
   * What it does in the table: each grant is a list of item actions on the
   * partition-key prefixes it owns (an IAM statement with a
   * `dynamodb:LeadingKeys` condition), or Query on an index's prefixes.
   * Empty: no table access, and no TABLE_NAME.
   */
  table: readonly TableGrant[];
  /** Queues it sends jobs to. */
  sendsTo: Queue[];
  /** Dead-letter queues it sends poison jobs to (its own queue's). */
  sendsToDeadLetterOf: Queue[];
  /** Provider secrets it reads. */
  secrets: SecretId[];
}

/** One Lambda function: its source module, sizing and access. */
export interface FunctionDefinition<Id extends string = FunctionId, Queue extends string = JobQueueId> {
  id: Id;
  /**
   * `api`: behind a route, authenticated by API key (401 first under /api);
   * `webhook`: behind a route outside /api, called by a provider and
   * authenticated by that provider's signature, never by a key;
   * `worker`: consumes a queue; `scheduled`: runs on a timer.
   */
  kind: 'api' | 'webhook' | 'worker' | 'scheduled';
  /** Module exporting `handler`, relative to the repository root. */
  entry: string;
  description: string;
  timeoutSeconds: number;
  memoryMb: number;
  access: FunctionAccess<Queue>;
  /** How often a `scheduled` function runs. */
  scheduleMinutes?: number;
  /**
   * How often a `scheduled` function runs under `npm start`, when not every
   * `scheduleMinutes`: a setting in whole seconds (read by the local runtime) and its default.
   * @default every scheduleMinutes
   */
  localSchedule?: { readonly setting: string; readonly defaultSeconds: number };
  /**
   * Plain (not secret) provider settings it reads, by their docs/configuration.md
   * names: each environment's value (infra/config.ts) is set on it, and
   * only on it. @default none
   */
  settings?: readonly string[];
  /** Files the function reads from disk at run time, copied into its bundle. @default none */
  bundledFiles?: readonly BundledFile[];
  /** Worker-thread scripts the function starts, each bundled on its own beside its index.mjs. @default none */
  workerBundles?: readonly WorkerBundle[];
}

/** A data file a function reads at run time: copied into its Lambda bundle at the same relative path. */
export interface BundledFile {
  /** Path relative to the repository root (and to the bundle's root, `/var/task` in Lambda). */
  source: string;
  /** Setting through which the function is told the file's path in the bundle. */
  setting: string;
}

/**
 * A script a function runs in a worker thread. A Lambda bundle is one
 * file, and a worker thread cannot run code from inside it, so the script
 * is bundled on its own (same settings) and emitted beside index.mjs, where
 * the code that starts the worker looks for it (`new URL(bundle, import.meta.url)`).
 */
export interface WorkerBundle {
  /** The worker's entry, relative to the repository root. */
  source: string;
  /** File name of its bundle, beside index.mjs. */
  bundle: string;
}

/** The kinds of function that sit behind a route (api functions and webhooks): each is capped and throttled per route. */
export const ROUTED_KINDS: readonly FunctionDefinition['kind'][] = ['api', 'webhook'];

/** True for a function behind a route (an api function or a webhook). */
export function isRouted(definition: Pick<FunctionDefinition, 'kind'>): boolean {
  return ROUTED_KINDS.includes(definition.kind);
}

/** Functions behind routes, and the scheduled ones. Workers are declared with their job type (job-types.ts). */
const API_AND_SCHEDULED = [
  {
    id: 'leadFollowUpApi',
    kind: 'api',
    entry: 'functions/api/lead-follow-up.ts',
    description: 'POST /api/agents/sales/leadFollowUp: validate, record the command, queue the sales job',
    timeoutSeconds: 29,
    memoryMb: 512,
    access: {
      table: [
        { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
        { actions: ['GetItem', 'Query'], keyPrefixes: ['SITE#'] },
        { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
        { actions: ['GetItem', 'PutItem'], keyPrefixes: ['IDEM#'] },
      ],
      sendsTo: ['sales'],
      sendsToDeadLetterOf: [],
      secrets: [],
    },
  },
  {
    id: 'getCommandApi',
    kind: 'api',
    entry: 'functions/api/get-command.ts',
    description: 'GET /api/commands/{id}: read a command of the caller',
    // Long enough for the longest `Prefer: wait` (limits.ts) and a margin.
    timeoutSeconds: 29,
    memoryMb: 256,
    access: {
      table: [{ actions: ['GetItem'], keyPrefixes: ['APIKEY#', 'CMD#'] }],
      sendsTo: [],
      sendsToDeadLetterOf: [],
      secrets: [],
    },
  },
  {
    id: 'deleteCommandApi',
    kind: 'api',
    entry: 'functions/api/delete-command.ts',
    description: "DELETE /api/commands/{id}: erase a command of the caller, its child phases and a sequence's follow-ups",
    timeoutSeconds: 10,
    memoryMb: 256,
    access: {
      table: [
        { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
        // The command and its child phases, erased only for the tenant that owns them, each deleted
        // with a small marker left in its place (one transaction) so later jobs for it know it was erased.
        { actions: ['GetItem', 'DeleteItem', 'PutItem'], keyPrefixes: ['CMD#'] },
        // A sequence's follow-ups, erased with their command (conditional on its tenant).
        { actions: ['DeleteItem'], keyPrefixes: ['FOLLOWUP#'] },
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
    timeoutSeconds: 5,
    memoryMb: 128,
    access: { table: [], sendsTo: [], sendsToDeadLetterOf: [], secrets: [] },
  },
  {
    id: 'notFoundApi',
    kind: 'api',
    entry: 'functions/api/not-found.ts',
    description: 'Every other route: 401 without a key under /api, 405 for a known path with another method, else 404 NOT_FOUND',
    timeoutSeconds: 10,
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
      ],
      sendsTo: [...JOB_TYPES.filter((job) => job.startsCommand).map((job) => job.queue.id), EVENT_DELIVERY_QUEUE],
      sendsToDeadLetterOf: [],
      secrets: [],
    },
  },
  {
    id: 'stakeholderCoordinationApi',
    kind: 'api',
    entry: 'functions/api/stakeholder-coordination.ts',
    description: 'POST /api/agents/cmo/stakeholder-coordination: validate, build the meeting prompts and context summary, record the command, queue the call job',
    timeoutSeconds: 29,
    memoryMb: 512,
    access: {
      table: [
        { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
        // The site, its lead, visitor, user and agents, and the bounded lists of its context summary.
        { actions: ['GetItem', 'Query'], keyPrefixes: ['SITE#'] },
        // A conversation named by the request, or the new one it starts.
        { actions: ['GetItem', 'PutItem'], keyPrefixes: ['CONV#'] },
        { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
        { actions: ['GetItem', 'PutItem'], keyPrefixes: ['IDEM#'] },
      ],
      sendsTo: ['call'],
      sendsToDeadLetterOf: [],
      secrets: [],
    },
  },
  {
    id: 'twilioCallStatusWebhook',
    kind: 'webhook',
    entry: 'functions/webhooks/twilio-call-status.ts',
    description: "POST /webhooks/twilio/call-status: Twilio's signed status callbacks move a command's call (one conditional update); a completed call requests its post-call summary",
    // It answers within a second (one conditional write); the margin covers a cold start reading the Twilio secret.
    timeoutSeconds: 5,
    memoryMb: 256,
    access: {
      table: [
        // One conditional UpdateItem of the command's call.
        { actions: ['UpdateItem'], keyPrefixes: ['CMD#'] },
        // Then the command is read, to tell the tenant's webhooks (call.status_changed).
        { actions: ['GetItem'], keyPrefixes: ['CMD#'] },
        ...EVENT_PUBLISHER_TABLE_GRANTS,
        // A completed call requests its post-call summary (the backstop of the relay's $disconnect): the
        // command's meeting_summary (a conditional UpdateItem, above) and the post_call_summary child it starts
        // (written only while its parent exists: a ConditionCheck in the same transaction).
        { actions: ['PutItem', 'ConditionCheckItem'], keyPrefixes: ['CMD#'] },
      ],
      sendsTo: [EVENT_DELIVERY_QUEUE, 'summary'],
      sendsToDeadLetterOf: [],
      // TWILIO_AUTH_TOKEN, to check X-Twilio-Signature.
      secrets: ['twilio'],
    },
  },
  {
    id: 'deepResearchApi',
    kind: 'api',
    entry: 'functions/api/deep-research.ts',
    description: 'POST /api/deepResearch/operation: validate, record the command (no site), queue the research job',
    timeoutSeconds: 29,
    memoryMb: 512,
    access: {
      table: [
        { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
        { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
        { actions: ['GetItem', 'PutItem'], keyPrefixes: ['IDEM#'] },
      ],
      sendsTo: ['research'],
      sendsToDeadLetterOf: [],
      secrets: [],
    },
  },
  {
    id: 'listFollowUpsApi',
    kind: 'api',
    entry: 'functions/api/list-follow-ups.ts',
    description: "GET /api/leads/{leadId}/follow-ups: the lead's follow-ups of the caller's tenant, in schedule order, a page at a time",
    timeoutSeconds: 10,
    memoryMb: 256,
    access: {
      table: [
        { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
        // The site (the key must cover it) and its lead.
        { actions: ['GetItem'], keyPrefixes: ['SITE#'] },
        // The lead's follow-ups, in the tenant's own lead partition.
        { index: 'gsi2', actions: ['Query'], keyPrefixes: ['FOLLOWUP#LEAD#'] },
      ],
      sendsTo: [],
      sendsToDeadLetterOf: [],
      secrets: [],
    },
  },
  {
    id: 'updateFollowUpApi',
    kind: 'api',
    entry: 'functions/api/update-follow-up.ts',
    description: 'PATCH /api/follow-ups/{id}: edit a step of a sequence (copy, time) or end it (sent, skipped, cancelled), one conditional write',
    timeoutSeconds: 10,
    memoryMb: 256,
    access: {
      table: [
        { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
        { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['FOLLOWUP#'] },
      ],
      sendsTo: [],
      sendsToDeadLetterOf: [],
      secrets: [],
    },
  },
  {
    id: 'leadEventsApi',
    kind: 'api',
    entry: 'functions/api/lead-events.ts',
    description: "POST /api/leads/{leadId}/events: record what a lead did and adapt the lead's remaining follow-ups (sequence.adapted)",
    // It answers within a second or two; a POST api function still outlasts the longest Prefer: wait, as every one does.
    timeoutSeconds: 29,
    memoryMb: 256,
    access: {
      table: [
        { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
        // The site and its lead, read only.
        { actions: ['GetItem'], keyPrefixes: ['SITE#'] },
        // The event joins the tenant's history of the lead (one conditional PutItem per event).
        { actions: ['PutItem'], keyPrefixes: ['LEADHISTORY#'] },
        { actions: ['GetItem', 'PutItem'], keyPrefixes: ['IDEM#'] },
        // The steps it cancels or moves, and the event's record (FOLLOWUP#EVENT#).
        { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['FOLLOWUP#'] },
        { index: 'gsi2', actions: ['Query'], keyPrefixes: ['FOLLOWUP#LEAD#'] },
        // sequence.adapted for the tenant's webhooks (event-publishing.ts).
        ...EVENT_PUBLISHER_TABLE_GRANTS,
      ],
      sendsTo: [EVENT_DELIVERY_QUEUE],
      sendsToDeadLetterOf: [],
      secrets: [],
    },
  },
  {
    id: 'followUpDispatcher',
    kind: 'scheduled',
    entry: 'functions/scheduled/follow-up-dispatcher.ts',
    description: 'Every 5 minutes: makes scheduled follow-ups whose time has come due (once each) and publishes follow_up.due',
    timeoutSeconds: 60,
    memoryMb: 256,
    // Sequences are spaced by days: a step announced up to 5 minutes after its time is on time. Locally, FOLLOW_UP_DISPATCH_SECONDS.
    scheduleMinutes: 5,
    localSchedule: { setting: 'FOLLOW_UP_DISPATCH_SECONDS', defaultSeconds: 60 },
    access: {
      table: [
        { index: 'gsi1', actions: ['Query'], keyPrefixes: ['FOLLOWUP#scheduled', 'FOLLOWUP#announcing'] },
        { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['FOLLOWUP#'] },
        // follow_up.due for the tenant's webhooks (event-publishing.ts).
        ...EVENT_PUBLISHER_TABLE_GRANTS,
      ],
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
  {
    id: 'conversationRelayWebhook',
    kind: 'webhook',
    entry: 'functions/webhooks/relay.ts',
    description: "The ConversationRelay socket ($connect, $default, $disconnect): Twilio's signed socket, the assistant's turns, the transcript, the post-call job",
    // Below API Gateway's 29 s integration timeout; one turn is one model call bounded by the voice policy's 18 s deadline.
    timeoutSeconds: 29,
    memoryMb: 256,
    access: {
      table: [
        // The stakeholder command: its call and prompts (read), its transcript and meeting_summary (conditional appends), and the post-call child it starts.
        { actions: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], keyPrefixes: ['CMD#'] },
        // One session item per socket: which command and call it carries.
        { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['RELAY#'] },
      ],
      sendsTo: ['summary'],
      sendsToDeadLetterOf: [],
      // TWILIO_AUTH_TOKEN, to check X-Twilio-Signature on the upgrade; OPENAI_API_KEY for the turns.
      secrets: ['twilio', 'openai'],
    },
  },
  {
    id: 'webhooksApi',
    kind: 'api',
    entry: 'functions/api/webhooks.ts',
    description: "/api/webhooks: register, list, delete the tenant's endpoints, rotate a signing secret, list and redeliver deliveries",
    // Registration resolves the URL's host (bounded by a 3 s lookup deadline); every other route is one or two table calls.
    timeoutSeconds: 10,
    memoryMb: 256,
    access: {
      table: [
        { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
        // The tenant's endpoints: one partition, a bounded number of slots, each written conditionally.
        { actions: ['Query', 'PutItem', 'UpdateItem', 'DeleteItem'], keyPrefixes: ['WEBHOOK#'] },
        // An endpoint's deliveries: listed newest first, read and set for redelivery.
        { actions: ['Query', 'GetItem', 'UpdateItem'], keyPrefixes: ['DELIVERY#'] },
      ],
      // A redelivery's job.
      sendsTo: ['webhooks'],
      sendsToDeadLetterOf: [],
      secrets: [],
    },
  },
] as const satisfies readonly FunctionDefinition<string>[];

/** Every deployed function: the API and scheduled ones, then one worker per job type. */
export const FUNCTIONS: readonly FunctionDefinition[] = [...API_AND_SCHEDULED, ...JOB_TYPES.map((job) => job.worker)];

/** The name of a deployed function. */
export type FunctionId = (typeof API_AND_SCHEDULED)[number]['id'] | (typeof JOB_TYPES)[number]['worker']['id'];

export function functionById(id: FunctionId): FunctionDefinition {
  const found = FUNCTIONS.find((fn) => fn.id === id);
  if (!found) throw new Error(`No function named ${id} in the service catalogue`);
  return found;
}
