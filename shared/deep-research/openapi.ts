import * as z from 'zod';
import { errorInfoSchema } from '../api/openapi/errors';
import { commandIdField, EXAMPLE_COMMAND_ID } from '../api/openapi/fields';
import { commandOperation, type DocumentedOperation } from '../api/openapi/operation';
import { SENTIMENTS } from './analysis-schema';
import { deepResearchRequestSchema, OPERATION_TYPES } from './schema';

/**
 * The API reference of deep research (documentation only: no function
 * bundle imports this file). The request is schema.ts's own schema, the one
 * the API checks.
 */
const TAG = {
  name: 'Deep research',
  description: 'Web research through a quota-aware chain of search providers, with optional content analysis.',
};

const dateRangeSchema = z
  .object({ from: z.string().nullable(), to: z.string().nullable() })
  .meta({ description: 'The requested publication range; `null` where open.' });

const contentAnalysisSchema = z
  .object({
    summary: z.string().meta({ description: 'Plain text, one to three sentences.' }),
    key_points: z.array(z.string()).max(5),
    sentiment: z.enum(SENTIMENTS),
    relevance_score: z.number().int().min(0).max(10).meta({ description: '0 (unrelated to the query) to 10 (answers it directly).' }),
  })
  .meta({
    id: 'ContentAnalysis',
    description: 'What the model found in a result, relative to the query (with `include_content_analysis: true`).',
  });

const researchResultSchema = z
  .object({
    title: z.string(),
    url: z.string().meta({ format: 'uri' }),
    snippet: z.string(),
    domain: z.string().meta({ description: "The URL's host, lower case, without `www.`.", example: 'techcrunch.com' }),
    publishedDate: z.string().optional().meta({ format: 'date', description: 'YYYY-MM-DD, when the provider knew it.' }),
    content_analysis: contentAnalysisSchema.optional(),
  })
  .meta({ id: 'ResearchResult' });

export const deepResearchAcceptedSchema = z
  .object({
    command_id: commandIdField,
    status: z.literal('in_progress'),
    operation_type: z.enum(OPERATION_TYPES),
    query: z.string().meta({ description: 'The query that will run (operators included).' }),
    date_range: dateRangeSchema,
  })
  .meta({ id: 'DeepResearchAccepted' });

export const deepResearchResultSchema = z
  .object({
    success: z.literal(true),
    command_id: commandIdField,
    operation_type: z.enum(OPERATION_TYPES),
    query: z.string().meta({ description: 'The query sent (operators included).' }),
    date_range: dateRangeSchema,
    results: z.array(researchResultSchema),
    total_results: z.number().int().min(0),
    processing_time_ms: z.number().int().min(0).meta({ description: "From the command's creation to its result." }),
    analysis_included: z.boolean(),
    provider: z
      .string()
      .meta({ description: 'Who served: `google`, `brave`, `perplexity` or `local-corpus` (no provider key).', example: 'google' }),
    provider_requests: z.number().int().min(0).meta({ description: 'Provider requests the search spent (0 when the cache served).' }),
    cached: z.boolean().meta({ description: 'True when the cache served the search.' }),
    warnings: z.array(errorInfoSchema).optional().meta({ description: 'Analysis that could not run: the results are given without it.' }),
  })
  .meta({
    id: 'DeepResearchResult',
    description:
      'A completed research operation. Unlike the other operations, its fields sit at the top level, beside `success` (no `data`).',
  });

/** POST /api/deepResearch/operation. */
export const DEEP_RESEARCH_OPERATIONS: readonly DocumentedOperation[] = [
  commandOperation({
    method: 'POST',
    path: '/api/deepResearch/operation',
    operationId: 'runDeepResearch',
    tag: TAG,
    summary: 'Run a research operation',
    description: [
      'Searches the web through the provider chain (Google, then Brave, then Perplexity by default; each skipped without its key, Google within its daily quota; ' +
        'the local corpus when none is configured), de-duplicates and filters the results, and analyses each one when asked. Concerns no site: any key of the tenant may run it.',
      '',
      'Every error answer carries `processing_time_ms` beside `error`; a body that is not JSON is VALIDATION_ERROR.',
    ].join('\n'),
    body: {
      schema: deepResearchRequestSchema,
      example: { operation_type: 'custom_search', query: 'AI agents in B2B sales', max_results: 10, include_content_analysis: true },
    },
    errors: ['VALIDATION_ERROR', 'INVALID_OPERATION', 'MISSING_QUERY'],
    failures: ['SEARCH_FAILED', 'SYSTEM_ERROR'],
    accepted: deepResearchAcceptedSchema,
    acceptedExample: {
      success: true,
      data: {
        command_id: EXAMPLE_COMMAND_ID,
        status: 'in_progress',
        operation_type: 'custom_search',
        query: 'AI agents in B2B sales',
        date_range: { from: null, to: null },
      },
    },
    completed: deepResearchResultSchema,
  }),
];
