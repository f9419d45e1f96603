import type { Principal } from '../access/api-keys';
import type { CommandRecord } from '../commands/record';
import type { CommandStore } from '../commands/store';
import { AppError } from '../platform/errors';
import { isUuid } from '../platform/ids';

/**
 * Use case: reads a command the caller's tenant created. Another tenant's
 * command, or a malformed id, reads exactly like a missing one.
 */
export async function readCommandFor(commands: CommandStore, principal: Principal, id: string | undefined): Promise<CommandRecord> {
  const notFound = () => new AppError('COMMAND_NOT_FOUND', id ? `Command ${id} was not found.` : 'No command id was given.');
  if (!id || !isUuid(id)) throw notFound();
  const command = await commands.get(id);
  if (!command || command.tenant_id !== principal.tenantId) throw notFound();
  return command;
}
