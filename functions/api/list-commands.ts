import { answerListCommands } from '../../shared/api/list-commands';
import { apiRoute } from '../../shared/api/route';
import { dynamoCommandListing } from '../../shared/commands/dynamo-listing';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { Settings } from '../../shared/composition/settings';

/** GET /api/commands: the commands the caller's tenant started, newest first, a page at a time, read through an index. */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('listCommandsApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const deps = {
    logger: loggerOf('listCommandsApi', settings),
    authenticate: authenticatorOf(db, tableName, settings, clock),
    listing: dynamoCommandListing(db, tableName),
    clock,
  };
  return apiRoute(deps, {}, ({ principal, event }) => answerListCommands(deps, principal, event.queryStringParameters));
}

export const handler = lambdaEntry(build);
