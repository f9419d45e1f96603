import { liveFieldsOf } from '../catalogue/features';
import type { NoLiveFields, StoredCommand } from '../commands/record';
import type { CommandStore } from '../commands/store';
import { usageView, type UsageCounters } from '../usage/usage';
import { errorResponse, jsonResponse } from '../platform/http/responses';
import type { HttpResult } from '../platform/http/types';
import { honourWaitPreference } from './wait-preference';

/** Where a command can be read. */
export function commandLocation(id: string): string {
  return `/api/commands/${id}`;
}

/** How an operation shows its command to a POST caller. */
export interface CommandPresenter {
  /** `data` of the 202 answer: what is known before any worker ran. */
  accepted(command: StoredCommand): Record<string, unknown>;
  /** The 200 body once completed (default: `{success, data: {command_id, …result}}`). */
  completed?(command: StoredCommand): Record<string, unknown>;
  /** Top-level fields added to the error envelope of a failed command. */
  errorExtra?(command: StoredCommand): Record<string, unknown>;
}

/**
 * Answers a POST that created (or replayed) a command: 202 with what is
 * known, or, when the caller sent `Prefer: wait=N`, the finished result (200
 * or the error envelope of its code) if it ends in time; the wait is capped at
 * `maxWaitSeconds` (the route's, below its function's timeout). Every answer
 * carries `Location`; `Preference-Applied` only an answer the wait made terminal.
 */
export async function respondWithCommand(
  commands: CommandStore,
  command: StoredCommand,
  preferHeader: string | undefined,
  presenter: CommandPresenter,
  maxWaitSeconds: number,
): Promise<HttpResult> {
  const waited = await honourWaitPreference(commands, command, preferHeader, maxWaitSeconds);
  const current = waited.command;
  const location = { location: commandLocation(command.id) };
  const headers = { ...location, ...waited.headers };
  if (current.status === 'completed') {
    const body = presenter.completed?.(current) ?? { success: true, data: { command_id: current.id, ...current.result } };
    return jsonResponse(200, body, headers);
  }
  if (current.status === 'failed' && current.error) {
    return errorResponse(current.error, headers, presenter.errorExtra?.(current) ?? {});
  }
  return jsonResponse(
    202,
    { success: true, data: { command_id: current.id, status: current.status, ...presenter.accepted(current) } },
    location,
  );
}

/**
 * The body of `GET /api/commands/{id}`. A command type's live fields (its
 * feature's catalogue lists them, read here through liveFieldsOf) are shown
 * as its type's view makes them, as they are now: they override any
 * snapshot of them in `result`. With `usage` (its counters), the command
 * shows what it used (shared/usage/usage.ts `usageView`).
 */
export function commandView<Live extends object = NoLiveFields>(
  command: StoredCommand<Live>,
  usage?: UsageCounters,
): Record<string, unknown> {
  return {
    success: true,
    data: {
      command_id: command.id,
      type: command.type,
      status: command.status,
      ...(command.site_id ? { site_id: command.site_id } : {}),
      created_at: command.created_at,
      updated_at: command.updated_at,
      ...(command.parent_id ? { parent_id: command.parent_id } : {}),
      ...(command.child_ids?.length ? { child_ids: command.child_ids } : {}),
      ...(command.result ?? {}),
      ...(liveFieldsOf(command.type)?.view?.(command) ?? {}),
      ...(command.warnings?.length ? { warnings: command.warnings } : {}),
      ...(command.error ? { error: command.error } : {}),
      ...(usage ? { usage: usageView(usage) } : {}),
    },
  };
}
