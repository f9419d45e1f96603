import * as z from 'zod';

/** Field schemas the reference uses everywhere (documentation only). */

/** A command id of the demo run, for examples. */
export const EXAMPLE_COMMAND_ID = '01a2089c-61b9-7628-80f6-bfab1a2ceaa4';
/** The demo site and lead `npm start` loads (infra/local/demo-data.json). */
export const DEMO_SITE_ID = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
export const DEMO_LEAD_ID = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

/** A UUID (any case is accepted; answers use lower case). */
export function uuidField(description: string, example: string = EXAMPLE_COMMAND_ID) {
  return z.string().meta({ format: 'uuid', description, example });
}

/** An ISO 8601 UTC instant. */
export function instantField(description: string) {
  return z.string().meta({ format: 'date-time', description, example: '2026-11-23T14:02:11.512Z' });
}

/** The id of a command. */
export const commandIdField = uuidField('The command\'s id (time-ordered UUID): read it with GET /api/commands/{id}.');

/** Who wrote generated text: a real model, or the deterministic offline writer (no model key). */
export const generatedByField = z
  .enum(['openai', 'offline'])
  .meta({ description: 'Who wrote the text: `openai` (any OpenAI-compatible model), or `offline`, the deterministic writer used without a model key.' });
