import { commandView } from '../api/command-responses';
import type { EventPublisher } from '../commands/events';
import type { FinishHook } from '../commands/finish';
import { isTerminal, type StoredCommand } from '../commands/record';
import type { CommandStore } from '../commands/store';

/** Deepest chain of phases followed up to the command a caller started (copywriter → lead follow-up). */
const MAX_PHASE_DEPTH = 4;

/**
 * Largest `data.command` sent whole. A command whose view is larger (a
 * research with many analysed results) is sent as a summary with
 * `truncated: true`; the receiver reads the whole with GET /api/commands/{id}.
 * Stays well below DynamoDB's 400 KB item and the 256 KiB request bodies receivers commonly accept.
 */
export const MAX_COMMAND_DATA_BYTES = 200 * 1024;

/** What the hook reads and publishes through. */
export interface CommandEventDependencies {
  commands: Pick<CommandStore, 'get'>;
  events: EventPublisher;
}

/**
 * The finish hook of the completion webhooks: when a command a caller
 * started ends, it publishes `command.completed` or `command.failed`
 * (idempotency key `<command id>:<status>`) with `data.command` the data of
 * `GET /api/commands/{id}`. An internal phase (a command with a parent:
 * copywriter, post-call summary) is never announced itself; its ending
 * publishes its root's event when the root has ended, so a phase that
 * finished its parent and then died before the parent's event was out
 * still gets it out when its job is retried. Publishing is idempotent, so
 * the hook may run any number of times for one ending.
 */
export function commandEventHook(deps: CommandEventDependencies): FinishHook {
  return async (finished) => {
    const root = await rootCommandOf(deps.commands, finished);
    if (!root || !isTerminal(root.status)) return;
    await deps.events.publish({
      tenantId: root.tenant_id,
      type: root.status === 'completed' ? 'command.completed' : 'command.failed',
      data: commandEventData(root),
      idempotencyKey: `${root.id}:${root.status}`,
    });
  };
}

/** The command a caller started: the finished command itself, or the parent (of the parent…) of a phase; undefined when it is gone. */
async function rootCommandOf(commands: Pick<CommandStore, 'get'>, finished: Pick<StoredCommand, 'id' | 'tenant_id' | 'parent_id'>): Promise<StoredCommand | undefined> {
  let current = await commands.get(finished.id);
  for (let depth = 0; current?.parent_id && depth < MAX_PHASE_DEPTH; depth++) {
    const parent: StoredCommand | undefined = await commands.get(current.parent_id);
    if (!parent || parent.tenant_id !== current.tenant_id) return undefined;
    current = parent;
  }
  if (!current || current.tenant_id !== finished.tenant_id || current.parent_id) return undefined;
  return current;
}

/** `data` of a command event: `{command}` as GET shows it, or its summary with `truncated: true` when too large. */
export function commandEventData(command: StoredCommand): Record<string, unknown> {
  const view = commandView(command).data as Record<string, unknown>;
  if (Buffer.byteLength(JSON.stringify(view), 'utf8') <= MAX_COMMAND_DATA_BYTES) return { command: view };
  const summary = Object.fromEntries(
    ['command_id', 'type', 'status', 'site_id', 'created_at', 'updated_at', 'parent_id', 'child_ids', 'error'].filter((key) => key in view).map((key) => [key, view[key]]),
  );
  return { command: summary, truncated: true };
}
