import * as z from 'zod/mini';
import '../../shared/platform/zod-messages';
import { createJobWorker } from '../../shared/commands/worker';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { workerComposition } from '../../shared/composition/worker';
import { readConfig } from '../../shared/platform/config';
import { lazyLlm } from '../../shared/providers/llm/from-settings';
import { configuredTelephony } from '../../shared/providers/telephony/from-settings';
import { readRelayVoice } from '../../shared/providers/telephony/relay-settings';
import { stakeholderCallJob } from '../../shared/stakeholder-coordination/call-phase';
import { dynamoCallStore } from '../../shared/stakeholder-coordination/call-store';

/** Composes the SQS handler of the `call` queue (stakeholder coordination: meeting details, then the call) from its settings. */
export function build(settings: Settings, host: HostPorts = {}) {
  const deps = workerComposition('callWorker', settings, host);
  // Optional like every telephony setting: without it no call can be placed (Twilio could not call back), so calls fail as not configured.
  const { PUBLIC_BASE_URL } = readConfig({ PUBLIC_BASE_URL: z.optional(z.url()) }, settings);
  const definition = stakeholderCallJob({
    ...deps,
    calls: dynamoCallStore(deps.db, deps.tableName),
    llm: lazyLlm(deps.secrets, settings, deps.llmPolicy),
    telephony: configuredTelephony({ settings, secrets: deps.secrets }),
    ...(PUBLIC_BASE_URL ? { publicBaseUrl: PUBLIC_BASE_URL } : {}),
    relayVoice: readRelayVoice(settings),
  });
  return createJobWorker(definition, deps);
}

export const handler = lambdaEntry(build);
