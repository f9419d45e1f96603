import type { LiveFields } from '../catalogue/live-fields';
import type { CommandType, CommandWith, NoLiveFields, StoredCommand } from './record';

/** Anything that turns an unknown value into a T or throws: a zod schema fits. */
export interface Parser<T> {
  parse(value: unknown): T;
}

/**
 * A command type's stored state: the schemas its `request` and `progress`
 * are read back with, and the type of the fields its feature keeps beside
 * the kernel's (`Live`). A feature declares one per command type it owns.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- Live types the command a phase of this kind is given (readCommand)
export interface CommandKind<Request, Progress, Live extends object = NoLiveFields> {
  type: CommandType;
  request: Parser<Request>;
  progress: Parser<Progress>;
  /**
   * What its feature keeps on the command beside the request, and how GET shows it (its feature's catalogue lists it by type, as
   * `liveFields`).
   */
  live?: LiveFields;
}

/** A stored command whose request or progress no longer reads as its type's: it can never run. */
export class UnreadableCommandError extends Error {
  constructor(commandId: string, what: string, cause: unknown) {
    super(`Command ${commandId}: its stored ${what} does not read as its type's`, { cause });
    this.name = 'UnreadableCommandError';
  }
}

/**
 * Reads a stored command as its kind: the type must match, and `request`
 * and `progress` are parsed with the kind's schemas (never cast).
 */
export function readCommand<Request, Progress, Live extends object = NoLiveFields>(
  kind: CommandKind<Request, Progress, Live>,
  stored: StoredCommand,
): CommandWith<Request, Progress, Live> {
  if (stored.type !== kind.type) throw new UnreadableCommandError(stored.id, `type (${stored.type}, expected ${kind.type})`, undefined);
  let request: Request;
  let progress: Progress;
  try {
    request = kind.request.parse(stored.request);
  } catch (error) {
    throw new UnreadableCommandError(stored.id, 'request', error);
  }
  try {
    progress = kind.progress.parse(stored.progress ?? {});
  } catch (error) {
    throw new UnreadableCommandError(stored.id, 'progress', error);
  }
  // Live fields are passed through as their feature wrote them (the store never reads them).
  return { ...(stored as StoredCommand<Live>), request, progress };
}
