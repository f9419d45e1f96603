import type { Principal } from '../access/api-keys';
import { isExpired, type StoredCommand } from '../commands/record';
import type { CommandStore } from '../commands/store';
import { AppError } from '../platform/errors';
import { jsonResponse } from '../platform/http/responses';
import type { HttpResult } from '../platform/http/types';
import { isUuid } from '../platform/ids';
import { shownId } from '../platform/shown';
import { commandView } from './command-responses';
import { honourWaitPreference } from './wait-preference';

/**
 * Use case: reads a command the caller's tenant created. The id is read
 * case-blind (an upper-case UUID names the same command). Another tenant's
 * command, a command past its retention (not yet swept by the table's TTL)
 * or a malformed id reads exactly like a missing one.
 */
export async function readCommandFor(
  commands: CommandStore,
  principal: Principal,
  id: string | undefined,
  now: number = Date.now(),
): Promise<StoredCommand> {
  const notFound = () => new AppError('COMMAND_NOT_FOUND', id ? `Command ${shownId(id)} was not found.` : 'No command id was given.');
  const normalised = id?.toLowerCase();
  if (!normalised || !isUuid(normalised)) throw notFound();
  const command = await commands.get(normalised);
  if (!command || command.tenant_id !== principal.tenantId || isExpired(command, now)) throw notFound();
  return command;
}

/**
 * Use case: `GET /api/commands/{id}`. Always 200 with the command's view for
 * a command the caller may see; with `Prefer: wait=N` it answers as soon as
 * the command ends (then with `Preference-Applied`), or after N seconds with
 * its state then. Its `usage` is what it (with its phases) has used so far.
 */
export async function answerGetCommand(
  commands: CommandStore,
  principal: Principal,
  id: string | undefined,
  preferHeader: string | undefined,
  maxWaitSeconds: number,
): Promise<HttpResult> {
  const command = await readCommandFor(commands, principal, id);
  const waited = await honourWaitPreference(commands, command, preferHeader, maxWaitSeconds);
  return jsonResponse(200, commandView(waited.command, await commands.usageOf(command.id)), waited.headers);
}
