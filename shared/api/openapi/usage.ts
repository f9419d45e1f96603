import * as z from 'zod';
import { DEMO_SITE_ID } from './fields';
import { apiOperation, successEnvelope, type DocumentedOperation } from './operation';
import { MAX_USAGE_DAYS, usageQuerySchema } from '../usage';
import { USAGE_GROUPINGS, type UsageReport } from '../usage-report';

const USAGE_TAG = {
  name: 'Usage',
  description: "What the key's tenant used: commands, model tokens, searches, calls, deliveries, CRM writes.",
};

const count = (description: string) => z.number().int().min(0).meta({ description });

/** The totals of a range (or of one group of it). */
const usageTotalSchema = z
  .object({
    commands: count('Commands that ended (completed or failed) in the range; their phases are not counted apart.'),
    model_tokens: z
      .object({
        input: count('Prompt tokens, every model together.'),
        output: count('Completion tokens, every model together.'),
        by_model: z
          .record(z.string(), z.object({ input: count('Prompt tokens.'), output: count('Completion tokens.') }))
          .meta({ description: 'Per model, as the provider names it; the offline writer shows as `offline`, always 0.' }),
      })
      .meta({ description: "Model tokens, as the model provider's own usage numbers report them." }),
    searches: z.object({
      requests: count('Requests sent to search providers (a page of results is one).'),
      cache_hits: count('Searches answered from the cache: no provider request.'),
      by_provider: z.record(z.string(), count('Requests.')).meta({ description: 'Requests per provider.' }),
    }),
    call_seconds: count("Seconds of phone calls, as the telephony provider's final status reports them."),
    webhook_deliveries: count('Webhook deliveries an endpoint accepted.'),
    crm_writes: count('Writes a CRM accepted (a note, a contact property).'),
  })
  .meta({ id: 'UsageTotal', description: 'What was used; a counter nothing added to is 0.' });

/** What one command used, with its phases (`usage` of GET /api/commands/{id}). */
export const commandUsageSchema = usageTotalSchema.omit({ commands: true }).meta({
  id: 'CommandUsage',
  description:
    'What the command used so far, its phases included: model tokens per model, search requests per provider and cache hits, call ' +
    "seconds, webhook deliveries, CRM writes. It may go on growing after the command ends (its completion event's deliveries, a call's seconds).",
});

const usageGroupSchema = usageTotalSchema
  .extend({
    day: z.string().optional().meta({ description: 'With `group_by=day`: the UTC day.', example: '2026-11-23' }),
    type: z.string().optional().meta({ description: 'With `group_by=type`: the command type.', example: 'lead_follow_up' }),
    site_id: z
      .string()
      .nullable()
      .optional()
      .meta({ format: 'uuid', description: 'With `group_by=site`: the site; null for commands without one (deep research).' }),
  })
  .meta({ id: 'UsageGroup', description: 'The totals of one group: its key (the one `group_by` names), then what it used.' });

const usageReportSchema = z
  .object({
    from: z.string().meta({ description: 'The first day counted (UTC).', example: '2026-11-01' }),
    to: z.string().meta({ description: 'The last day counted, included (UTC).', example: '2026-11-23' }),
    group_by: z.enum(USAGE_GROUPINGS).optional().meta({ description: 'As asked.' }),
    totals: usageTotalSchema,
    groups: z.array(usageGroupSchema).optional().meta({
      description:
        'With `group_by` only: days ascending, types by name, sites by id (`site_id: null` last). A group with no usage is left out.',
    }),
  })
  .meta({ id: 'UsageReport' });

/** Fails to compile when the report (usage-report.ts) gains a field the schema lacks. */
const _reportFields: [Exclude<keyof UsageReport, keyof z.infer<typeof usageReportSchema>>] extends [never] ? true : false = true;

const EXAMPLE_TOTAL = {
  commands: 3,
  model_tokens: { input: 2140, output: 512, by_model: { 'gpt-4o-mini': { input: 2140, output: 512 } } },
  searches: { requests: 4, cache_hits: 1, by_provider: { google: 4 } },
  call_seconds: 95,
  webhook_deliveries: 3,
  crm_writes: 1,
};

/** The route of shared/api/usage.ts. */
export const USAGE_OPERATIONS: readonly DocumentedOperation[] = [
  apiOperation({
    method: 'GET',
    path: '/api/usage',
    operationId: 'getUsage',
    tag: USAGE_TAG,
    summary: 'Read usage',
    description: [
      "What the key's tenant used over a range of UTC days (both included; default: this month so far), from the totals kept as " +
        'commands end and providers answer: a job delivered twice counts once. Usage counts on the day it was made final (a command ' +
        'ending, a delivery accepted), not the day its command started.',
      '',
      `At most ${MAX_USAGE_DAYS} days at once; a malformed day, \`to\` before \`from\`, an unknown \`group_by\` or parameter: ` +
        '400 VALIDATION_ERROR naming the parameter.',
    ].join('\n'),
    query: usageQuerySchema,
    errors: ['VALIDATION_ERROR'],
    answers: {
      200: {
        description: 'The totals, and the groups when `group_by` was given.',
        schema: successEnvelope(usageReportSchema),
        example: {
          success: true,
          data: {
            from: '2026-11-01',
            to: '2026-11-23',
            group_by: 'site',
            totals: EXAMPLE_TOTAL,
            groups: [{ site_id: DEMO_SITE_ID, ...EXAMPLE_TOTAL }],
          },
        },
      },
    },
  }),
];
