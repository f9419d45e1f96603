import * as z from 'zod/mini';
import { described } from '../platform/described';
import '../platform/zod-messages';
import type { Principal } from '../access/api-keys';
import { commandTypesRun, type CommandType } from '../catalogue/job-types';
import type { CommandListing, CommandSummary } from '../commands/listing';
import type { CommandStatus } from '../commands/record';
import type { Clock } from '../platform/clock';
import { AppError } from '../platform/errors';
import { pageLimitSchema } from '../platform/http/page-limit';
import { jsonResponse } from '../platform/http/responses';
import type { HttpResult } from '../platform/http/types';
import { isUuid } from '../platform/ids';
import { describeFirstIssue, toIssueDetails } from '../platform/validation';
import { decodeCommandCursor, encodeCommandCursor } from './command-cursor';

/** Commands per page unless `limit` says otherwise, and at most (as a lead's follow-ups). */
export const DEFAULT_COMMAND_PAGE_SIZE = 50;
export const MAX_COMMAND_PAGE_SIZE = 100;

/** Longest `cursor` accepted (the API's own are far shorter). */
const MAX_CURSOR_LENGTH = 512;

/** Every command type of the catalogue. */
export const LISTED_COMMAND_TYPES = commandTypesRun() as [CommandType, ...CommandType[]];
export const LISTED_COMMAND_STATUSES = ['in_progress', 'completed', 'failed'] as const satisfies readonly CommandStatus[];
/** Fails to compile when a command status is added (commands/record.ts) but not here. */
const _everyStatus: [Exclude<CommandStatus, (typeof LISTED_COMMAND_STATUSES)[number]>] extends [never] ? true : false = true;

/** A comma-separated list of `options`, each at most once. */
function listOf<T extends string>(options: readonly [T, ...T[]], what: string, example: string) {
  const parts = z.pipe(
    z.string().check(z.maxLength(500)),
    z.transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      ),
    ]),
  );
  return described(z.optional(z.pipe(parts, z.array(z.enum(options)).check(z.minLength(1), z.maxLength(options.length)))), {
    description: `Only ${what}, comma-separated: ${options.map((option) => `\`${option}\``).join(', ')}.`,
    example,
  });
}

/** An ISO 8601 instant with its offset, read as the same instant in UTC. */
const instant = (meta: { description: string; example?: string }) =>
  described(
    z.optional(
      z.pipe(
        z.iso.datetime({ offset: true }),
        z.transform((value) => new Date(value).toISOString()),
      ),
    ),
    meta,
  );

/** The query of `GET /api/commands`. */
export const listCommandsQuerySchema = z
  .strictObject({
    type: listOf(LISTED_COMMAND_TYPES, 'commands of these types', 'stakeholder_coordination'),
    status: listOf(LISTED_COMMAND_STATUSES, 'commands in these states', 'failed'),
    site_id: described(
      z.optional(
        z.string().check(
          z.maxLength(100),
          z.refine((value) => isUuid(value.toLowerCase()), 'Invalid UUID'),
        ),
      ),
      {
        format: 'uuid',
        description: 'Only commands on this site.',
      },
    ),
    created_after: instant({
      description: 'Only commands created at or after this instant (ISO 8601).',
      example: '2026-11-01T00:00:00Z',
    }),
    created_before: instant({ description: 'Only commands created before this instant (ISO 8601).' }),
    limit: described(pageLimitSchema(DEFAULT_COMMAND_PAGE_SIZE, MAX_COMMAND_PAGE_SIZE), { description: 'Commands in a page.' }),
    cursor: described(z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_CURSOR_LENGTH))), {
      description: 'The `next_cursor` of the previous page (opaque).',
    }),
  })
  .check(
    z.refine((query) => !query.created_after || !query.created_before || query.created_after < query.created_before, {
      message: 'created_after must be before created_before',
      path: ['created_after'],
    }),
  );

export interface ListCommandsDependencies {
  listing: CommandListing;
  clock: Clock;
}

/** A command as a listing shows it: the short form of GET /api/commands/{id}. */
export interface CommandListItem {
  command_id: string;
  type: CommandType;
  status: CommandStatus;
  site_id: string | null;
  created_at: string;
  finished_at: string | null;
  error: { code: string } | null;
}

/**
 * Use case: `GET /api/commands[?type=&status=&site_id=&created_after=&created_before=&limit=&cursor=]`.
 * The commands the caller's tenant started (never a child phase), newest
 * first, at most `limit` a page, with `next_cursor` for the next page (null
 * on the last). A page may hold fewer than `limit` with a cursor still given
 * when filters leave few matches: each request reads a bounded part of the index.
 */
export async function answerListCommands(
  deps: ListCommandsDependencies,
  principal: Principal,
  query: Readonly<Record<string, string | undefined>> | undefined,
): Promise<HttpResult> {
  const parsed = listCommandsQuerySchema.safeParse(query ?? {});
  if (!parsed.success) throw new AppError('INVALID_REQUEST', describeFirstIssue(parsed.error.issues), toIssueDetails(parsed.error.issues));
  const { type, status, site_id, created_after, created_before, limit, cursor } = parsed.data;
  const siteId = site_id?.toLowerCase();
  // A cursor holds for the listing it came from: this tenant, these filters (the page size may change).
  const scope = [
    principal.tenantId,
    type?.toSorted() ?? null,
    status?.toSorted() ?? null,
    siteId ?? null,
    created_after ?? null,
    created_before ?? null,
  ];
  const after = cursor === undefined ? undefined : decodeCommandCursor(cursor, scope);
  const page = await deps.listing.listForTenant({
    tenantId: principal.tenantId,
    limit,
    now: deps.clock.now(),
    ...(type ? { types: type } : {}),
    ...(status ? { statuses: status } : {}),
    ...(siteId ? { siteId } : {}),
    ...(created_after ? { createdAfter: created_after } : {}),
    ...(created_before ? { createdBefore: created_before } : {}),
    ...(after ? { after } : {}),
  });
  return jsonResponse(200, {
    success: true,
    data: {
      commands: page.commands.map(listItemOf),
      has_more: page.next !== undefined,
      next_cursor: page.next === undefined ? null : encodeCommandCursor(page.next, scope),
    },
  });
}

function listItemOf(command: CommandSummary): CommandListItem {
  const terminal = command.status !== 'in_progress';
  return {
    command_id: command.id,
    type: command.type,
    status: command.status,
    site_id: command.site_id ?? null,
    created_at: command.created_at,
    // Commands finished before finished_at was kept: their last change is when they ended.
    finished_at: terminal ? (command.finished_at ?? command.updated_at) : null,
    error: command.error ?? null,
  };
}
