import { commandView } from '../api/command-responses';
import { NOTHING_STAGED, type EventPublisher } from '../commands/events';
import type { FinishAnnouncer } from '../commands/finish';
import type { StoredCommand } from '../commands/record';

/**
 * Largest `data.command` sent whole. A command whose view is larger (a
 * research with many analysed results) is sent as a summary with
 * `truncated: true`; the receiver reads the whole with GET /api/commands/{id}.
 * Stays well below DynamoDB's 400 KB item and the 256 KiB request bodies receivers commonly accept.
 */
export const MAX_COMMAND_DATA_BYTES = 200 * 1024;

/**
 * The announcer of the completion webhooks: a command a caller started
 * ends with `command.completed` or `command.failed` (idempotency key
 * `<command id>:<status>`), with `data.command` the data of
 * `GET /api/commands/{id}` as the ending leaves it, staged to commit with
 * the terminal write. An internal phase (a command with a parent:
 * copywriter, post-call summary) is never announced itself; the phase that
 * ends its parent (the copywriter) finishes the parent, which announces it.
 */
export function commandEventAnnouncer(events: Pick<EventPublisher, 'stage'>): FinishAnnouncer {
  return async (command, ending, ended) => {
    if (command.parent_id) return NOTHING_STAGED;
    return events.stage([
      {
        tenantId: command.tenant_id,
        type: ending.status === 'completed' ? 'command.completed' : 'command.failed',
        idempotencyKey: `${command.id}:${ending.status}`,
        // A command gone meanwhile makes the terminal write fail, and its event with it: its data never shows.
        data: async () => {
          const view = await ended();
          return view ? commandEventData(view) : {};
        },
      },
    ]);
  };
}

/** `data` of a command event: `{command}` as GET shows it, or its summary with `truncated: true` when too large. */
export function commandEventData(command: StoredCommand): Record<string, unknown> {
  const view = commandView(command).data as Record<string, unknown>;
  if (Buffer.byteLength(JSON.stringify(view), 'utf8') <= MAX_COMMAND_DATA_BYTES) return { command: view };
  const summary = Object.fromEntries(
    ['command_id', 'type', 'status', 'site_id', 'created_at', 'updated_at', 'parent_id', 'child_ids', 'error']
      .filter((key) => key in view)
      .map((key) => [key, view[key]]),
  );
  return { command: summary, truncated: true };
}
