import { MAX_WAIT_SECONDS } from '../../shared/catalogue/limits';
import { apiRoute } from '../../shared/api/route';
import { commandView } from '../../shared/api/command-responses';
import { readCommandFor } from '../../shared/api/get-command';
import { preferredWaitMs, waitForTerminal } from '../../shared/commands/wait';
import { platformDependencies } from '../../shared/composition/environment';
import { jsonResponse } from '../../shared/platform/http/responses';

const deps = platformDependencies('getCommandApi');

/**
 * GET /api/commands/{id}: the caller's command, 404 COMMAND_NOT_FOUND
 * otherwise. With `Prefer: wait=N` it answers as soon as the command ends,
 * or after N seconds with its state then (always 200).
 */
export const handler = apiRoute(deps, {}, async ({ event, principal, headers }) => {
  const command = await readCommandFor(deps.commands, principal, event.pathParameters?.id);
  const waitMs = preferredWaitMs(headers.prefer, MAX_WAIT_SECONDS);
  const current = waitMs ? ((await waitForTerminal(deps.commands, command.id, waitMs, command)) ?? command) : command;
  return jsonResponse(200, commandView(current));
});
