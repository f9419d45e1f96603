import { stakeholderCoordinationLive } from '../stakeholder-coordination/live';
import type { CommandType } from './job-types';

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
 */
export interface LiveFields {
  readonly fields: readonly string[];
  view?(command: LiveCommand): Record<string, unknown>;
}

/** The command types that keep live fields, and theirs; the kernel and the GET path read them here, never from a feature. */
const LIVE_FIELDS: Partial<Record<CommandType, LiveFields>> = {
  stakeholder_coordination: stakeholderCoordinationLive,
};

/** The live fields of a command type (none when it keeps none). */
export function liveFieldsOf(type: string): LiveFields | undefined {
  return (LIVE_FIELDS as Partial<Record<string, LiveFields>>)[type];
}
