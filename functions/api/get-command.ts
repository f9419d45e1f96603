import { apiRoute } from '../../shared/api/route';
import { commandView } from '../../shared/api/command-responses';
import { readCommandFor } from '../../shared/api/get-command';
import { platformDependencies } from '../../shared/composition/environment';
import { jsonResponse } from '../../shared/platform/http/responses';

const deps = platformDependencies('getCommandApi');

/** GET /api/commands/{id}: the caller's command, 404 COMMAND_NOT_FOUND otherwise. */
export const handler = apiRoute(deps, {}, async ({ event, principal }) => {
  const command = await readCommandFor(deps.commands, principal, event.pathParameters?.id);
  return jsonResponse(200, commandView(command));
});
