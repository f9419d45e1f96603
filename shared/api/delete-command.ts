import type { Principal } from '../access/api-keys';
import type { StoredCommand } from '../commands/record';
import type { CommandStore } from '../commands/store';
import { AppError } from '../platform/errors';
import { jsonResponse } from '../platform/http/responses';
import type { HttpResult } from '../platform/http/types';
import { readCommandFor } from './get-command';

/** Deepest chain of child phases followed when erasing (a command's children, their children, ...). */
const MAX_PHASE_DEPTH = 4;

/**
 * Erases what a command made outside its own record (a sequence's
 * follow-ups), for the command's tenant only; returns the ids erased. Runs
 * before the command is erased, so a retry after a failure still finds them.
 */
export type LeftoverEraser = (command: StoredCommand) => Promise<string[]>;

/**
 * Use case: `DELETE /api/commands/{id}`. Erases a command the caller's
 * tenant created, in any state, with its child phases (children first, so a
 * retry after a failure still finds them through the parent). Answers 200
 * `{success: true, data: {command_id, deleted: true, deleted_ids}}`, where
 * `deleted_ids` lists the command and each child this request erased;
 * another tenant's command, a missing one or one already erased answers 404
 * COMMAND_NOT_FOUND. A worker still running the command can no longer
 * change it: its writes are conditional on the command existing. With
 * `eraseLeftovers`, what the command made elsewhere goes first; the answer
 * then lists the follow-ups erased in `deleted_follow_up_ids` (when any).
 */
export async function answerDeleteCommand(
  commands: CommandStore,
  principal: Principal,
  id: string | undefined,
  now: number = Date.now(),
  eraseLeftovers?: LeftoverEraser,
): Promise<HttpResult> {
  const command = await readCommandFor(commands, principal, id, now);
  const leftovers = eraseLeftovers ? await eraseLeftovers(command) : [];
  const children = await eraseChildren(commands, principal.tenantId, command, MAX_PHASE_DEPTH);
  if (!(await commands.erase(command.id, principal.tenantId))) {
    throw new AppError('COMMAND_NOT_FOUND', `Command ${command.id} was not found.`);
  }
  return jsonResponse(200, {
    success: true,
    data: { command_id: command.id, deleted: true, deleted_ids: [command.id, ...children], ...(leftovers.length > 0 ? { deleted_follow_up_ids: leftovers } : {}) },
  });
}

/** Erases the command's children (and theirs), deepest first; returns the ids erased. */
async function eraseChildren(commands: CommandStore, tenantId: string, command: StoredCommand, depth: number): Promise<string[]> {
  const erased: string[] = [];
  for (const childId of command.child_ids ?? []) {
    const child = await commands.get(childId);
    if (!child || child.tenant_id !== tenantId) continue;
    if (depth > 1) erased.push(...(await eraseChildren(commands, tenantId, child, depth - 1)));
    if (await commands.erase(childId, tenantId)) erased.push(childId);
  }
  return erased;
}
