import { apiRoute } from '../../shared/api/route';
import { answerGetCommand } from '../../shared/api/get-command';
import { platformDependencies } from '../../shared/composition/environment';

const deps = platformDependencies('getCommandApi');

/**
 * GET /api/commands/{id}: the caller's command, 404 COMMAND_NOT_FOUND
 * otherwise. With `Prefer: wait=N` it answers as soon as the command ends,
 * or after N seconds with its state then (always 200).
 */
export const handler = apiRoute(deps, {}, async ({ event, principal, headers }) =>
  answerGetCommand(deps.commands, principal, event.pathParameters?.id, headers.prefer),
);
