import { noEvents } from '../../shared/commands/events';
import { createJobWorker } from '../../shared/commands/worker';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { Settings } from '../../shared/composition/settings';
import { workerComposition } from '../../shared/composition/worker';
import { lazyLlm } from '../../shared/providers/llm/from-settings';
import { postCallSummaryJob } from '../../shared/voice-assistant/summary-phase';
import { dynamoMeetingSummaryStore } from '../../shared/voice-assistant/summary-store';

/** Composes the SQS handler of the `summary` queue (the meeting summary after a stakeholder call) from its settings. */
export function build(settings: Settings) {
  const deps = workerComposition('postCallSummaryWorker', settings);
  const definition = postCallSummaryJob({
    ...deps,
    summaries: dynamoMeetingSummaryStore(deps.db, deps.tableName),
    llm: lazyLlm(deps.secrets, settings, deps.llmPolicy),
    // `meeting_summary.created` reaches the tenant's webhooks once they are composed in (shared/commands/events.ts).
    events: noEvents,
  });
  return createJobWorker(definition, deps);
}

export const handler = lambdaEntry(build);
