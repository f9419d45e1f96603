import type * as z from 'zod';
import type { CommandPresenter } from '../api/command-responses';
import type { StoredCommand } from '../commands/record';
import type { ErrorInfo } from '../platform/errors';
import type { SearchQuery } from '../providers/search/port';
import type { deepResearchAcceptedSchema, deepResearchResultSchema } from './openapi';
import type { DeepResearchRequest } from './schema';

/** The requested publication range, as the response shows it (`null` where open). */
export type DateRange = DeepResearchResultAnswer['date_range'];

/** The 200 answer of a completed research operation, as the reference documents it. */
type DeepResearchResultAnswer = z.input<typeof deepResearchResultSchema>;

/** `data` of the 202 answer, without what every command answer adds (`command_id`, `status`). */
type AcceptedData = Omit<z.input<typeof deepResearchAcceptedSchema>, 'command_id' | 'status'>;

/**
 * A completed research command's `result`: the documented answer without
 * what showing it adds (`success`, `command_id`, `warnings`). Typed from the
 * reference's schema, so the two cannot drift apart.
 */
export type DeepResearchResult = Omit<DeepResearchResultAnswer, 'success' | 'command_id' | 'warnings'>;

export function dateRangeOf(request: Pick<DeepResearchRequest, 'date_from' | 'date_to'>): DateRange {
  return { from: request.date_from ?? null, to: request.date_to ?? null };
}

/** Milliseconds from a command's creation to its last change (its end, once terminal). */
export function commandDurationMs(command: Pick<StoredCommand, 'created_at' | 'updated_at'>): number {
  return Math.max(0, Date.parse(command.updated_at) - Date.parse(command.created_at));
}

/**
 * How deep research shows its command to a POST caller: 202 with the id and
 * the query that will run; once completed (`Prefer: wait=N`), the seed's
 * response `{success: true, operation_type, query, date_range, results,
 * total_results, processing_time_ms, analysis_included}` with `command_id`,
 * `provider` and `provider_requests` beside it; once failed, the error
 * envelope with `processing_time_ms`.
 */
export function deepResearchPresenter(request: DeepResearchRequest, query: SearchQuery): CommandPresenter {
  return {
    accepted: () =>
      ({ operation_type: request.operation_type, query: query.text, date_range: dateRangeOf(request) }) satisfies AcceptedData,
    completed: (command) =>
      ({
        success: true,
        command_id: command.id,
        // The research phase stored this result, typed as DeepResearchResult.
        ...(command.result as DeepResearchResult),
        ...(command.warnings?.length ? { warnings: command.warnings } : {}),
      }) satisfies Omit<DeepResearchResultAnswer, 'warnings'> & { warnings?: ErrorInfo[] },
    errorExtra: (command) => ({ processing_time_ms: commandDurationMs(command) }),
  };
}

/** The error of a search no provider could serve: SEARCH_FAILED, with each provider's reason. */
export function searchFailedError(failures: readonly { provider: string; reason: string }[], providerRequests: number): ErrorInfo {
  const reasons = failures.map((failure) => `${failure.provider}: ${failure.reason}`).join('; ');
  return {
    code: 'SEARCH_FAILED',
    message: `Every search provider failed (${reasons || 'none configured'}); ${providerRequests} provider request(s) spent. The request can be retried.`,
    details: failures.map((failure) => ({ code: 'provider_failed', message: failure.reason, path: ['providers', failure.provider] })),
  };
}
