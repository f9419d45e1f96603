import * as z from 'zod/mini';
import { batchAnalysisSchema, singleAnalysisSchema } from '../../shared/deep-research/analysis-schema';
import { CHANNEL_ORDER } from '../../shared/lead-follow-up/channels';
import { refinementSchema } from '../../shared/lead-follow-up/copywriter-phase';
import { channelMessagesSchema } from '../../shared/lead-follow-up/sales-phase';
import { writtenSequenceSchema } from '../../shared/lead-follow-up/sequence-answer';
import { described } from '../../shared/platform/described';
import { toStrictJsonSchema } from '../../shared/providers/llm/strict-schema';
import { writtenMeetingSchema } from '../../shared/stakeholder-coordination/meeting-details';
import { meetingSummarySchema } from '../../shared/voice-assistant/summary-schema';

type JsonSchema = Record<string, unknown>;

/**
 * What strict mode asks of zod's own conversion (the oracle): `$schema`
 * dropped, and every object with all its properties required and no others.
 */
function strictFromZod(schema: z.core.$ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema) as JsonSchema;
  return strict(rest);
}

function strict(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, strict(child as JsonSchema)]));
    } else if ((key === 'items' || key === 'not') && isSchema(value)) {
      out[key] = strict(value);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out[key] = value.map((child) => strict(child as JsonSchema));
    } else {
      out[key] = value;
    }
  }
  if (node.type === 'object') {
    out.required = Object.keys(isSchema(out.properties) ? out.properties : {});
    out.additionalProperties = false;
  }
  return out;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every schema the service asks a model to answer in (sales-phase, copywriter, sequences, research, meetings, summaries). */
const ANSWER_SCHEMAS: ReadonlyArray<[string, z.core.$ZodType]> = [
  ['lead_follow_up_messages, every channel', channelMessagesSchema(CHANNEL_ORDER)],
  ['lead_follow_up_messages, email only', channelMessagesSchema(['email'])],
  ['lead_follow_up_refinement, every channel', refinementSchema(CHANNEL_ORDER)],
  ['lead_follow_up_sequence of 3', writtenSequenceSchema(3)],
  ['search_result_analysis', singleAnalysisSchema],
  ['search_result_analyses', batchAnalysisSchema],
  ['stakeholder_meeting_details', writtenMeetingSchema],
  ['post_call_meeting_summary', meetingSummarySchema],
];

describe('toStrictJsonSchema', () => {
  it.each(ANSWER_SCHEMAS)('converts %s as zod does, made strict', (_name, schema) => {
    expect(toStrictJsonSchema(schema)).toEqual(strictFromZod(schema));
  });

  it('keeps descriptions, writes a nullable primitive as a type list and an exact length as both bounds', () => {
    const schema = z.object({
      owner: described(z.nullable(z.string()), { description: 'Who owns it.' }),
      steps: z.array(z.object({ at: z.nullable(z.object({ day: z.number() })) })).check(z.length(2)),
      urgent: z.boolean(),
      priority: z.enum(['high', 'low']),
    });
    expect(toStrictJsonSchema(schema)).toEqual(strictFromZod(schema));
    expect(toStrictJsonSchema(schema)).toMatchObject({
      properties: {
        owner: { type: ['string', 'null'], description: 'Who owns it.' },
        steps: { minItems: 2, maxItems: 2, items: { properties: { at: { anyOf: [{ type: 'object' }, { type: 'null' }] } } } },
      },
      required: ['owner', 'steps', 'urgent', 'priority'],
      additionalProperties: false,
    });
  });

  it('refuses, naming it, what strict answers cannot hold', () => {
    expect(() => toStrictJsonSchema(z.object({ note: z.optional(z.string()) }))).toThrow(/optional schema is not supported/);
    expect(() => toStrictJsonSchema(z.string().check(z.maxLength(5)))).toThrow(/max_length check of a string is not supported/);
    expect(() => toStrictJsonSchema(z.array(z.string()).check(z.minLength(1)))).toThrow(/min_length check is not supported/);
    expect(() => toStrictJsonSchema(z.enum({ one: 1 } as const))).toThrow(/only enums of strings/);
  });
});
