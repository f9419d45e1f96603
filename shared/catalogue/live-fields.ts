/** A stored command as a command type's live view reads it: its result, and whatever else is on the item. */
export interface LiveCommand {
  readonly result?: Record<string, unknown>;
  readonly [field: string]: unknown;
}

/**
 * A command type's live fields: what its feature stores on the command
 * beside its request (`fields`), some of which may keep moving after the
 * command ended (a call and its transcript), and how `GET
 * /api/commands/{id}` shows them as they are now (`view`; default: none).
 * A feature lists its own in its catalogue (`liveFields`), by command
 * type; the kernel and the GET path read them through `liveFieldsOf`
 * (features.ts), never from a feature.
 */
export interface LiveFields {
  readonly fields: readonly string[];
  view?(command: LiveCommand): Record<string, unknown>;
}
