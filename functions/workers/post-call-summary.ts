import { crmSyncProducerOf, meetingSummaryFinishHook } from '../../shared/composition/crm-sync';
import { dynamoConnectedCheck } from '../../shared/crm/connected-check';
import { createJobWorker } from '../../shared/commands/worker';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { workerComposition } from '../../shared/composition/worker';
import { lazyLlm } from '../../shared/providers/llm/from-settings';
import { dynamoSiteWorkStore } from '../../shared/sites/dynamo-site-work';
import { postCallSummaryJob } from '../../shared/voice-assistant/summary-phase';
import { dynamoMeetingSummaryStore } from '../../shared/voice-assistant/summary-store';

/** Composes the SQS handler of the `summary` queue (the meeting summary after a stakeholder call) from its settings. */
export function build(settings: Settings, host: HostPorts = {}) {
  const deps = workerComposition('postCallSummaryWorker', settings, host);
  const definition = postCallSummaryJob({
    ...deps,
    summaries: dynamoMeetingSummaryStore(deps.db, deps.tableName),
    siteWork: dynamoSiteWorkStore(deps.db, deps.tableName),
    llm: lazyLlm(deps.secrets, settings, deps.llmPolicy),
    // `meeting_summary.created`, to the tenant's webhooks (the catalogue entry grants publishing).
    events: deps.events,
  });
  // The summary of a call about a lead is logged on the lead's CRM contact (a crm_sync job), once per call.
  const crm = crmSyncProducerOf(
    'postCallSummaryWorker',
    deps.queue,
    deps.logger,
    dynamoConnectedCheck(deps.db, deps.tableName, deps.clock),
  );
  // The summary is an internal phase started after its stakeholder command ended: that command's
  // `command.completed` was told by the call worker that finished it, and this phase's ending is told as
  // `meeting_summary.created` only, never as a late `command.completed` of its parent.
  return createJobWorker(definition, { ...deps, onFinished: [meetingSummaryFinishHook(deps.commands, crm)] });
}

export const handler = lambdaEntry(build);
