import { apiRoute } from '../../shared/api/route';
import { commandView } from '../../shared/api/command-responses';
import { readCommandFor } from '../../shared/api/get-command';
import { maxWaitSecondsOf } from '../../shared/catalogue/limits';
import { dynamoCommandStore } from '../../shared/commands/store';
import { preferredWaitMs, waitForTerminal } from '../../shared/commands/wait';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf } from '../../shared/composition/adapters';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { Settings } from '../../shared/composition/settings';
import { jsonResponse } from '../../shared/platform/http/responses';

/**
 * GET /api/commands/{id}: the caller's command, 404 COMMAND_NOT_FOUND
 * otherwise. With `Prefer: wait=N` it answers as soon as the command ends,
 * or after N seconds (capped below the function's timeout) with its state
 * then (always 200). It reads the table only: no queue, secrets or idempotency.
 */
export function build(settings: Settings) {
  const db = documentClientOf(settings);
  const tableName = tableNameOf(settings);
  const commands = dynamoCommandStore(db, tableName);
  const maxWaitSeconds = maxWaitSecondsOf('getCommandApi');
  const deps = { logger: loggerOf('getCommandApi', settings), authenticate: authenticatorOf(db, tableName) };
  return apiRoute(deps, {}, async ({ event, principal, headers }) => {
    const command = await readCommandFor(commands, principal, event.pathParameters?.id);
    const waitMs = preferredWaitMs(headers.prefer, maxWaitSeconds);
    const current = waitMs ? ((await waitForTerminal(commands, command.id, waitMs, command)) ?? command) : command;
    return jsonResponse(200, commandView(current));
  });
}

export const handler = lambdaEntry(build);
