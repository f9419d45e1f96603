import { COMMAND_ACCEPT_TABLE_GRANTS, PRODUCER_JOB_TABLE_GRANTS, MONTHLY_CAP_GRANTS } from '../catalogue/command-start';
import { CRM_SYNC_PRODUCER_TABLE_GRANTS } from '../catalogue/crm-sync-producing';
import { EVENT_DELIVERY_QUEUE, EVENT_PUBLISHER_TABLE_GRANTS } from '../catalogue/event-publishing';
import type { FeatureCatalogue } from '../catalogue/feature';
import { workQueue } from '../catalogue/work-queue';

/**
 * Lead follow-up in the service catalogue, all in this one file: its
 * job types (each with its queue and worker), its functions behind routes
 * or on a timer with their access, and its routes.
 * shared/catalogue/features.ts lists it.
 */
export const LEAD_FOLLOW_UP_CATALOGUE = {
  jobTypes: [
    {
      type: 'lead_follow_up',
      commandType: 'lead_follow_up',
      startsCommand: true,
      fromProducers: true,
      queue: workQueue('sales', 'SALES'),
      worker: {
        id: 'salesWorker',
        kind: 'worker',
        entry: 'functions/workers/sales.ts',
        description: 'Lead follow-up phase 1: the sales agent writes the messages or the sequence',
        // One model call and one repair call, each bounded by the LLM policy's 56 s deadline.
        timeoutSeconds: 120,
        // Measured (a batch of 5 in one process, SDK bundled): peak RSS 141 MB, heap 50 MB, 17 ms CPU a job;
        // the rest of a job is waiting on the model, which more memory (and CPU) would not shorten.
        memoryMb: 256,
        access: {
          table: [
            // Whether the tenant has a CRM connection: a write-back is queued only then.
            ...CRM_SYNC_PRODUCER_TABLE_GRANTS,
            // Producer jobs: the tenant's sites, then the job's Idempotency-Key (command-start.ts).
            ...PRODUCER_JOB_TABLE_GRANTS,
            ...MONTHLY_CAP_GRANTS,
            { actions: ['GetItem', 'Query'], keyPrefixes: ['SITE#'] },
            // The command's tenant's window of the lead's history (one Query, Limit bounded), and its state of the lead.
            { actions: ['Query'], keyPrefixes: ['LEADHISTORY#'] },
            // Its command, and the copywriter child it starts: the child in one transaction with the command's update
            // (its sales output), a sequence's follow-ups with a ConditionCheck on it, so neither outlives an erased command.
            { actions: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], keyPrefixes: ['CMD#'] },
            // A sequence's follow-ups: in its command's completion on the first attempt, item by item (conditionally) after.
            { actions: ['PutItem'], keyPrefixes: ['FOLLOWUP#'] },
            // command.completed / command.failed for the tenant's webhooks (event-publishing.ts).
            ...EVENT_PUBLISHER_TABLE_GRANTS,
          ],
          // Its own queue too: a job that hit a fault, or whose command is busy, is queued again, delayed.
          // And `crm`: a lead follow-up completed with channel messages is noted on the lead's CRM contact (crm_sync, a finish hook).
          sendsTo: ['sales', 'copywriter', EVENT_DELIVERY_QUEUE, 'crmsync'],
          sendsToDeadLetterOf: ['sales'],
          secrets: ['openai'],
        },
      },
    },
    {
      type: 'copywriter',
      commandType: 'copywriter',
      startsCommand: true,
      fromProducers: false,
      queue: workQueue('copywriter', 'COPYWRITER'),
      worker: {
        id: 'copywriterWorker',
        kind: 'worker',
        entry: 'functions/workers/copywriter.ts',
        description: 'Lead follow-up phase 2: the copywriter agent refines the messages',
        // One model call and one repair call, each bounded by the LLM policy's 56 s deadline.
        timeoutSeconds: 120,
        // Measured (a batch of 5 in one process, SDK bundled): peak RSS 141 MB, heap 50 MB, 17 ms CPU a job;
        // the rest of a job is waiting on the model, which more memory (and CPU) would not shorten.
        memoryMb: 256,
        access: {
          table: [
            // Whether the tenant has a CRM connection: a write-back is queued only then.
            ...CRM_SYNC_PRODUCER_TABLE_GRANTS,
            { actions: ['GetItem'], keyPrefixes: ['SITE#'] },
            // Its command and the parent lead follow-up it finishes.
            { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
            // The parent's command.completed for the tenant's webhooks (event-publishing.ts).
            ...EVENT_PUBLISHER_TABLE_GRANTS,
          ],
          // Its own queue: a job that hit a fault, or whose command is busy, is queued again, delayed.
          // And `crm`: the messages it completes the lead follow-up with are noted on the lead's CRM contact (crm_sync, a finish hook).
          sendsTo: ['copywriter', EVENT_DELIVERY_QUEUE, 'crmsync'],
          sendsToDeadLetterOf: ['copywriter'],
          secrets: ['openai'],
        },
      },
    },
  ],
  functions: [
    {
      id: 'leadFollowUpApi',
      kind: 'api',
      entry: 'functions/api/lead-follow-up.ts',
      description: 'POST /api/agents/sales/leadFollowUp: validate, record the command, queue the sales job',
      timeoutSeconds: 29,
      memoryMb: 512,
      access: {
        table: [
          // The key, the Idempotency-Key and the command (command-start.ts).
          ...COMMAND_ACCEPT_TABLE_GRANTS,
          ...MONTHLY_CAP_GRANTS,
          // The site the request names, its lead and user, and its agents (listed to find an active sales agent).
          { actions: ['GetItem', 'Query'], keyPrefixes: ['SITE#'] },
          // The tenant's state of the lead (its unsubscribes), one key read by Query beside the lead's history.
          { actions: ['Query'], keyPrefixes: ['LEADHISTORY#'] },
        ],
        sendsTo: ['sales'],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
    {
      id: 'listFollowUpsApi',
      kind: 'api',
      entry: 'functions/api/list-follow-ups.ts',
      description: "GET /api/leads/{leadId}/follow-ups: the lead's follow-ups of the caller's tenant, in schedule order, a page at a time",
      // It never waits: three table reads (key, site, one page of follow-ups), each bounded by the SDK's 3 s request timeout.
      timeoutSeconds: 5,
      // Measured (sizing bench, five runs): 6.4–8.2 ms of CPU a warm request, 43–64 ms at 256 MB (over 50 in three runs).
      memoryMb: 512,
      access: {
        table: [
          { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
          // The site (the key must cover it) and its lead.
          { actions: ['GetItem'], keyPrefixes: ['SITE#'] },
          // Whether the lead's sequence is paused (its FOLLOWUP#PAUSE# record).
          { actions: ['GetItem'], keyPrefixes: ['FOLLOWUP#'] },
          // The lead's follow-ups, in the tenant's own lead partition.
          { index: 'gsi2', actions: ['Query'], keyPrefixes: ['FOLLOWUP#LEAD#'] },
        ],
        sendsTo: [],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
    {
      id: 'listSiteFollowUpsApi',
      kind: 'api',
      entry: 'functions/api/list-site-follow-ups.ts',
      description: "GET /api/follow-ups: the follow-ups of the caller's tenant across a site's leads, in schedule order, a page at a time",
      // It never waits: a key read, a site read and index pages (a page of steps is usually one), as a lead's listing.
      timeoutSeconds: 5,
      memoryMb: 256,
      access: {
        table: [
          { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
          // The site (the key must cover it).
          { actions: ['GetItem'], keyPrefixes: ['SITE#'] },
          // The site's follow-ups, in the tenant's own site partition.
          { index: 'gsi3', actions: ['Query'], keyPrefixes: ['FOLLOWUP#SITE#'] },
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
      description:
        'PATCH /api/follow-ups/{id}: edit a step of a sequence (copy, time) or end it (sent, skipped, cancelled), one conditional write',
      // It never waits: a key read, a read and one conditional write, each bounded by the SDK's 3 s request timeout.
      timeoutSeconds: 5,
      memoryMb: 256,
      access: {
        table: [
          // Whether the tenant has a CRM connection: a write-back is queued only then.
          ...CRM_SYNC_PRODUCER_TABLE_GRANTS,
          { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
          { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['FOLLOWUP#'] },
        ],
        // A step reported sent is written back to the tenant's CRM by a crm_sync job (never waited for).
        sendsTo: ['crmsync'],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
    {
      id: 'leadEventsApi',
      kind: 'api',
      entry: 'functions/api/lead-events.ts',
      description: "POST /api/leads/{leadId}/events: record what a lead did and adapt the lead's remaining follow-ups (sequence.adapted)",
      // It never waits and answers within a second or two: a handful of conditional writes (history, the steps it
      // moves or cancels, the event) and one queue send; 8 s leaves room for a slow call or two, and keeps its cap small.
      timeoutSeconds: 8,
      // Measured (sizing bench, five runs): 11–13 ms of CPU a warm request (five storage calls), 81–90 ms at 256 MB.
      memoryMb: 512,
      access: {
        table: [
          // Whether the tenant has a CRM connection: a write-back is queued only then.
          ...CRM_SYNC_PRODUCER_TABLE_GRANTS,
          { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
          // The site and its lead, read only.
          { actions: ['GetItem'], keyPrefixes: ['SITE#'] },
          // The event joins the tenant's history of the lead (one conditional PutItem per event), and moves the tenant's
          // state of the lead beside it (its stage, its unsubscribes: one UpdateItem).
          { actions: ['PutItem', 'UpdateItem'], keyPrefixes: ['LEADHISTORY#'] },
          // The Idempotency-Key of the event, and that of the lead follow-up a reply starts (derived from the event's id).
          { actions: ['GetItem', 'PutItem'], keyPrefixes: ['IDEM#'] },
          // The lead follow-up a reply starts (command-start.ts: written once, read back on a replay, closed if its job cannot be queued).
          { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
          // The steps it cancels or moves, and the event's record (FOLLOWUP#EVENT#).
          { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['FOLLOWUP#'] },
          { index: 'gsi2', actions: ['Query'], keyPrefixes: ['FOLLOWUP#LEAD#'] },
          // sequence.adapted for the tenant's webhooks (event-publishing.ts).
          ...EVENT_PUBLISHER_TABLE_GRANTS,
        ],
        // And the lead status an event moves, to the tenant's CRM by a crm_sync job (never waited for); a reply's sales job.
        sendsTo: [EVENT_DELIVERY_QUEUE, 'crmsync', 'sales'],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
    {
      id: 'pauseFollowUpsApi',
      kind: 'api',
      entry: 'functions/api/pause-follow-ups.ts',
      description:
        "POST /api/leads/{leadId}/follow-ups/pause and /resume: hold a lead's scheduled follow-ups, then put them back moved by the pause",
      // It never waits: the key, the site, the pause record, one page of the lead's steps and one conditional write per
      // scheduled step (a handful), each bounded by the SDK's 3 s request timeout; 8 s leaves room for a slow call or two.
      timeoutSeconds: 8,
      // Measured (sizing bench, five runs): 8.7–10.7 ms of CPU a warm request, 60–69 ms at 256 MB.
      memoryMb: 512,
      access: {
        table: [
          { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
          // The site (the key must cover it) and its lead.
          { actions: ['GetItem'], keyPrefixes: ['SITE#'] },
          // The lead's pause record (FOLLOWUP#PAUSE#, one per tenant and lead), kept from pause to resume, and the steps
          // it holds and puts back (conditional writes on scheduled steps of the tenant).
          { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], keyPrefixes: ['FOLLOWUP#'] },
          { index: 'gsi2', actions: ['Query'], keyPrefixes: ['FOLLOWUP#LEAD#'] },
        ],
        sendsTo: [],
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
  ],
  routes: [
    { method: 'POST', path: '/api/agents/sales/leadFollowUp', function: 'leadFollowUpApi' },
    { method: 'GET', path: '/api/leads/{leadId}/follow-ups', function: 'listFollowUpsApi' },
    { method: 'GET', path: '/api/follow-ups', function: 'listSiteFollowUpsApi' },
    { method: 'PATCH', path: '/api/follow-ups/{id}', function: 'updateFollowUpApi' },
    { method: 'POST', path: '/api/leads/{leadId}/events', function: 'leadEventsApi' },
    { method: 'POST', path: '/api/leads/{leadId}/follow-ups/pause', function: 'pauseFollowUpsApi' },
    { method: 'POST', path: '/api/leads/{leadId}/follow-ups/resume', function: 'pauseFollowUpsApi' },
  ],
  // A sequence's follow-ups are erased with their command (each delete conditional on its tenant).
  erasedWithCommand: [{ actions: ['DeleteItem'], keyPrefixes: ['FOLLOWUP#'] }],
} as const satisfies FeatureCatalogue;
