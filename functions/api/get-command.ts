import { answerGetCommand } from '../../shared/api/get-command';
import { apiRoute } from '../../shared/api/route';
import { maxWaitSecondsOf } from '../../shared/catalogue/limits';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { Settings } from '../../shared/composition/settings';

/**
 * GET /api/commands/{id}: the caller's command, 404 COMMAND_NOT_FOUND
 * otherwise. With `Prefer: wait=N` it answers as soon as the command ends,
 * or after N seconds (capped below the function's timeout) with its state
 * then (always 200). It reads the table only: no queue, secrets or idempotency.
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const tracing = tracingOf('getCommandApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const commands = dynamoCommandStore(db, tableName);
  const maxWaitSeconds = maxWaitSecondsOf('getCommandApi');
  const deps = { logger: loggerOf('getCommandApi', settings), authenticate: authenticatorOf(db, tableName, settings, clockOf(host)) };
  return apiRoute(deps, {}, ({ event, principal, headers }) =>
    answerGetCommand(commands, principal, event.pathParameters?.id, headers.prefer, maxWaitSeconds),
  );
}

export const handler = lambdaEntry(build);
