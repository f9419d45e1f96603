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
 * follow-ups, the tasks and requirements a call made), for the command's
 * tenant only; returns the ids erased by kind (`follow_up_ids`,
 * `task_ids`, ...), which the answer lists as `deleted_<kind>`. Runs before
 * the command is erased, so a retry after a failure still finds them.
 */
export type LeftoverEraser = (command: StoredCommand) => Promise<Readonly<Record<string, readonly string[]>>>;

/** Times the erase is tried again when a worker changed the command between its read and its deletion. */
const MAX_ERASE_ROUNDS = 5;

/**
 * Use case: `DELETE /api/commands/{id}`. Erases a command the caller's
 * tenant created, in any state, with its child phases (children first, so a
 * retry after a failure still finds them through the parent). Answers 200
 * `{success: true, data: {command_id, deleted: true, deleted_ids}}`, where
 * `deleted_ids` lists the command and each child this request erased;
 * another tenant's command, a missing one or one already erased answers 404
 * COMMAND_NOT_FOUND. With `eraseLeftovers`, what the command made elsewhere
 * goes first; the answer then lists what was erased of each kind (when any):
 * `deleted_follow_up_ids`, `deleted_task_ids`, `deleted_requirement_ids`.
 *
 * The erasure sticks while a worker still runs the command: the command is
 * deleted only if unchanged since it was read (else read again), so every
 * child it named is known; whatever its worker writes for it (children,
 * follow-ups, events) is written only while the command exists, so once it
 * is gone nothing more can appear; and a second pass erases what was written
 * between the first pass and the deletion.
 */
export async function answerDeleteCommand(
  commands: CommandStore,
  principal: Principal,
  id: string | undefined,
  now: number = Date.now(),
  eraseLeftovers?: LeftoverEraser,
): Promise<HttpResult> {
  for (let round = 0; round < MAX_ERASE_ROUNDS; round++) {
    const command = await readCommandFor(commands, principal, id, now);
    const leftovers = new Map<string, Set<string>>();
    const eraseLeftoversOnce = async () => {
      for (const [kind, ids] of Object.entries(eraseLeftovers ? await eraseLeftovers(command) : {})) {
        const kept = leftovers.get(kind) ?? new Set<string>();
        for (const id of ids) kept.add(id);
        leftovers.set(kind, kept);
      }
    };
    await eraseLeftoversOnce();
    const children = new Set(await eraseChildren(commands, principal.tenantId, command, MAX_PHASE_DEPTH));
    const place = command.status === 'in_progress' ? command.in_progress_place : undefined;
    if (!(await commands.erase(command.id, principal.tenantId, command.updated_at, place))) continue;
    await eraseLeftoversOnce();
    for (const child of await eraseChildren(commands, principal.tenantId, command, MAX_PHASE_DEPTH)) children.add(child);
    return jsonResponse(200, {
      success: true,
      data: {
        command_id: command.id,
        deleted: true,
        deleted_ids: [command.id, ...children],
        ...Object.fromEntries([...leftovers].filter(([, ids]) => ids.size > 0).map(([kind, ids]) => [`deleted_${kind}`, [...ids]])),
      },
    });
  }
  throw new AppError('SYSTEM_ERROR', 'The command kept changing while it was being erased; retry the request.');
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
