import { answerDeleteCommand } from '../../shared/api/delete-command';
import type { StoredCommand } from '../../shared/commands/record';
import { apiRoute } from '../../shared/api/route';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf } from '../../shared/composition/adapters';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { Settings } from '../../shared/composition/settings';
import { sequenceLeftovers } from '../../shared/lead-follow-up/sequences/erase';
import { dynamoStepStore } from '../../shared/lead-follow-up/sequences/step-store';
import { dynamoSiteWorkStore } from '../../shared/sites/dynamo-site-work';
import { callWorkLeftovers } from '../../shared/voice-assistant/summary-erase';

/**
 * DELETE /api/commands/{id}: erases the caller's command, its child
 * phases, a sequence's follow-ups and the tasks and requirements a call
 * made (200 with the ids erased), 404 COMMAND_NOT_FOUND otherwise. It reads
 * and deletes commands, follow-ups and call-made work, and reads keys: no
 * queue, secrets or idempotency.
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const db = documentClientOf(settings);
  const tableName = tableNameOf(settings);
  const commands = dynamoCommandStore(db, tableName);
  const eraseFollowUps = sequenceLeftovers(dynamoStepStore(db, tableName));
  const eraseCallWork = callWorkLeftovers(dynamoSiteWorkStore(db, tableName));
  const eraseLeftovers = async (command: StoredCommand) => ({
    follow_up_ids: await eraseFollowUps(command),
    ...(await eraseCallWork(command)),
  });
  const deps = { logger: loggerOf('deleteCommandApi', settings), authenticate: authenticatorOf(db, tableName, settings, clock) };
  return apiRoute(deps, {}, ({ event, principal }) =>
    answerDeleteCommand(commands, principal, event.pathParameters?.id, clock.now(), eraseLeftovers),
  );
}

export const handler = lambdaEntry(build);
