import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { FakeReply, OpenAiFake } from './openai';

/** The lead follow-up's model calls on the loopback OpenAI fake (shared by the tests that run it through the local runtime). */

type Schema = { properties?: Record<string, Schema>; items?: Schema; minItems?: number };
export type Router = Partial<Record<'messages' | 'refinement' | 'sequence', (body: ChatCompletionCreateParamsNonStreaming) => FakeReply>>;

export function schemaOf(body: ChatCompletionCreateParamsNonStreaming): { name: string; schema: Schema } {
  const format = body.response_format as { json_schema: { name: string; schema: Schema } };
  return format.json_schema;
}

/** A model that writes plain, correct copy for whatever channels or items the schema asks for. */
export function goodAnswer(body: ChatCompletionCreateParamsNonStreaming): FakeReply {
  const { name, schema } = schemaOf(body);
  const channels = Object.keys(schema.properties ?? {});
  if (name === 'lead_follow_up_messages') {
    return {
      content: Object.fromEntries(
        channels.map((channel) => [
          channel,
          {
            title: `A next step for your team (${channel})`,
            message: `Hi Jordan, thank you for your time with us. We would like to show you how the booking calendar can help your team this week.`,
            strategy: `Model strategy for ${channel}: lead with the pain point.`,
          },
        ]),
      ),
    };
  }
  if (name === 'lead_follow_up_refinement') {
    return {
      content: Object.fromEntries(
        channels.map((channel) => [
          channel,
          {
            title: `Refined: a next step for you (${channel})`,
            message: 'Hi Jordan, it was great to hear from you. Could we book a short call this week to plan the next step for your team?',
          },
        ]),
      ),
    };
  }
  const count = schema.properties?.follow_ups?.minItems ?? 3;
  return {
    content: {
      follow_ups: Array.from({ length: count }, (_, index) => ({
        subject: `Step ${index + 1}: a next step for your team`,
        content: `Hi Jordan, this is step ${index + 1} of our plan. We would like to show you how the calendar can help your team.`,
        next_steps: `Send step ${index + 2} if there is no reply.`,
        template: `step_${index + 1}`,
      })),
    },
  };
}

/** Answers each call by its schema's name, with `overrides` for some kinds. */
export function routeLeadFollowUp(fake: OpenAiFake, overrides: Router = {}): void {
  fake.respondWith((body) => {
    const { name } = schemaOf(body);
    const kind = name === 'lead_follow_up_messages' ? 'messages' : name === 'lead_follow_up_refinement' ? 'refinement' : 'sequence';
    return (overrides[kind] ?? goodAnswer)(body);
  });
}
