import * as z from 'zod';

export { DEMO_LEAD_ID, DEMO_SITE_ID } from '../examples';

/** Field schemas the reference uses everywhere (documentation only). */

/** A command id of the demo run, for examples. */
export const EXAMPLE_COMMAND_ID = '01a2089c-61b9-7628-80f6-bfab1a2ceaa4';

/** A UUID (any case is accepted; answers use lower case). */
export function uuidField(description: string, example: string = EXAMPLE_COMMAND_ID) {
  return z.string().meta({ format: 'uuid', description, example });
}

/** An ISO 8601 UTC instant. */
export function instantField(description: string) {
  return z.string().meta({ format: 'date-time', description, example: '2026-11-23T14:02:11.512Z' });
}

/** The id of a command. */
export const commandIdField = uuidField("The command's id (time-ordered UUID): read it with GET /api/commands/{id}.");

/** Who wrote generated text: a real model, or the deterministic offline writer (no model key). */
export const generatedByField = z.enum(['openai', 'offline']).meta({
  description:
    'Who wrote the text: `openai` (any OpenAI-compatible model), or `offline`, the deterministic writer used without a model key.',
});
