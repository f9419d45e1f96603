import type { Logger } from '@aws-lambda-powertools/logger';
import type { CommandWith } from '../commands/record';
import type { CallCommandFields, CallRecord } from '../calls/record';
import type { CommandStore } from '../commands/store';
import type { JobDefinition, PhaseInput, PhaseOutcome } from '../commands/worker';
import type { Clock } from '../platform/clock';
import { AppError } from '../platform/errors';
import type { LlmClient } from '../providers/llm/port';
import { callStateOf } from '../providers/telephony/call-status';
import { TelephonyError, type Telephony } from '../providers/telephony/port';
import { publicUrlOf, relayUrlOf } from '../providers/telephony/public-urls';
import type { RelayVoiceSettings } from '../providers/telephony/relay-settings';
import { relayTwiml } from '../providers/telephony/twiml';
import { newRelayToken } from '../calls/relay-token';
import { CALL_STATUS_PATH, RELAY_ENDED_PATH } from './call-status-path';
import type { CallStore } from './call-store';
import { readStakeholderCommand, stakeholderTargets, type ReadStakeholderCommand } from './command-object';
import { stakeholderCoordinationKind } from './kinds';
import { settleMeetingDetails } from './meeting-details';
import { welcomeGreeting } from './prompts';
import type { StakeholderProgress } from './progress';
import type { StakeholderCoordinationRequest } from './schema';

/** Seconds a call rings before Twilio gives up (no-answer). */
const RING_TIMEOUT_SECONDS = 30;

/** Why a call requested by a worker that stopped before the provider answered is not dialled again. */
export const ABANDONED_CALL_REASON =
  'the worker stopped after requesting the call and before the provider answered; not dialled again to avoid a second ring';

/** Why a call fails where no telephony provider is configured (no pretend calls). */
export const NOT_CONFIGURED_REASON = 'telephony not configured';

/** What the call worker works with. */
export interface StakeholderCallDependencies {
  commands: CommandStore;
  calls: CallStore;
  clock: Clock;
  /** The model, resolved on first use (its key may come from Secrets Manager). */
  llm: () => Promise<LlmClient>;
  /** The telephony, resolved on first use; undefined when none is configured. */
  telephony: () => Promise<Telephony | undefined>;
  /**
   * PUBLIC_BASE_URL: where Twilio reaches this service (status callbacks, the
   * relay socket). Without it telephony counts as not configured.
   */
  publicBaseUrl?: string;
  /** How Twilio speaks and listens on the call (the RELAY_* settings). @default DEFAULT_RELAY_VOICE */
  relayVoice?: RelayVoiceSettings;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

type StakeholderCommand = CommandWith<StakeholderCoordinationRequest, StakeholderProgress, CallCommandFields>;

/** The call worker's job: runs a stakeholder coordination command (the service queues it; producers may not). */
export function stakeholderCallJob(
  deps: StakeholderCallDependencies,
): JobDefinition<StakeholderCoordinationRequest, StakeholderProgress, CallCommandFields> {
  return {
    type: 'stakeholder_coordination',
    kind: stakeholderCoordinationKind,
    siteIdOf: (request) => request.site_id,
    run: (input) => runStakeholderCall(deps, input),
  };
}

/**
 * Use case: the worker phase of a stakeholder coordination. First the
 * meeting: a missing title or objective is written (the model, with the
 * deterministic writer as fallback) and the command's meeting details and
 * prompts are updated and kept, before anything else.
 * Then the call, never twice (see `placeCallOnce`). The command completes
 * with its prompts and summary whatever became of the call: the call is an
 * effect, and its state stays readable on the command.
 */
export async function runStakeholderCall(
  deps: StakeholderCallDependencies,
  input: PhaseInput<StakeholderCoordinationRequest, StakeholderProgress, CallCommandFields>,
): Promise<PhaseOutcome> {
  const { command, request } = input;
  let stored: ReadStakeholderCommand;
  try {
    stored = readStakeholderCommand(command);
  } catch (error) {
    throw new AppError('SYSTEM_ERROR', 'The stored command could not be read; it cannot run.', undefined, { cause: error });
  }

  let settled = command.progress?.meeting;
  let current: StakeholderCommand = command;
  if (!settled) {
    settled = stored.meeting.dynamic
      ? await settleMeetingDetails(await deps.llm(), stored.context, { title: request.meeting_title, objective: request.meeting_objective })
      : { ...stored.meeting, generated_by: null, model: null };
    const meeting = { title: settled.title, objective: settled.objective, dynamic: settled.dynamic };
    const patch = {
      progress: { ...command.progress, meeting: settled },
      targets: stakeholderTargets(stored.context, meeting),
    };
    if (!(await deps.commands.recordProgress(command.id, patch, deps.clock.now()))) {
      throw new Error(`Command ${command.id} is no longer in progress; its meeting details were not kept`);
    }
    current = { ...command, ...patch };
    if (settled.fallback_reason)
      deps.logger?.warn('Meeting details written by the offline writer', { commandId: command.id, reason: settled.fallback_reason });
  }

  if (command.call) await placeCallOnce(deps, current, command.call);

  const warnings = settled.fallback_reason
    ? [{ code: 'SYSTEM_ERROR' as const, message: `The meeting details were written without the model: ${settled.fallback_reason}` }]
    : undefined;
  // The result keeps only what this phase decided: GET and the presenter show the prompts, the context summary, the call and
  // the command object from the command itself (live.ts), so no later write of the item pays for a second copy of them, and
  // the phase need not read the command again for them.
  return {
    status: 'completed',
    result: {
      conversation_id: stored.context.conversation_id,
      meeting_details: { title: settled.title, objective: settled.objective },
      ...(settled.generated_by ? { generated_by: settled.generated_by } : {}),
    },
    patch: { ...(warnings ? { warnings } : {}) },
  };
}

/**
 * Places the command's call at most once, ever:
 * 1. a call no longer `pending`, or already placed, is left alone;
 * 2. a call already requested but never placed belongs to a worker that
 *    stopped between the request and the provider's answer: it is marked
 *    `failed` with that reason and never dialled again (a second ring is
 *    worse than a missed call);
 * 3. without telephony (or PUBLIC_BASE_URL, without which Twilio could
 *    not call back), the call fails ("telephony not configured");
 * 4. otherwise "call requested" is written conditionally (only one worker
 *    can), with the hash of the call's one-time relay token; then the
 *    provider is asked once, with TwiML that connects the answered call to
 *    `…/relay?token=<token>` and reports the session's end to
 *    `…/webhooks/twilio/relay-ended`; its call id is recorded, or its
 *    refusal (invalid number, auth, 5xx) fails the call with the reason.
 */
async function placeCallOnce(deps: StakeholderCallDependencies, command: StakeholderCommand, call: CallRecord): Promise<void> {
  const now = () => deps.clock.now();
  if (call.status !== 'pending' || call.provider_call_id) return;
  if (call.requested_at) {
    await deps.calls.failRequested(command.id, call.id, call.requested_at, ABANDONED_CALL_REASON, now());
    deps.logger?.warn('A call requested by an earlier attempt was never placed; it is failed, not dialled again', {
      commandId: command.id,
      callId: call.id,
    });
    return;
  }

  const { publicBaseUrl } = deps;
  const telephony = publicBaseUrl ? await deps.telephony() : undefined;
  if (!telephony || !publicBaseUrl) {
    await deps.calls.failUnrequested(command.id, call.id, NOT_CONFIGURED_REASON, now());
    return;
  }
  const relay = newRelayToken();
  const requestedAt = await deps.calls.markRequested(command.id, call.id, telephony.provider, now(), relay.hash);
  if (requestedAt === false) return;
  const commandQuery = `?command_id=${encodeURIComponent(command.id)}`;

  const { context, meeting } = readStakeholderCommand(command);
  try {
    const placed = await telephony.placeCall({
      to: call.phone_number,
      twiml: relayTwiml({
        relayUrl: relayUrlOf(publicBaseUrl, relay.token),
        actionUrl: publicUrlOf(publicBaseUrl, `${RELAY_ENDED_PATH}${commandQuery}`),
        commandId: command.id,
        welcomeGreeting: welcomeGreeting(context, meeting),
        ...(deps.relayVoice ? { voice: deps.relayVoice } : {}),
      }),
      statusCallbackUrl: publicUrlOf(publicBaseUrl, `${CALL_STATUS_PATH}${commandQuery}`),
      ringTimeoutSeconds: RING_TIMEOUT_SECONDS,
    });
    const recorded = await deps.calls.recordPlaced(
      command.id,
      call.id,
      requestedAt,
      {
        provider: placed.provider,
        providerCallId: placed.sid,
        providerStatus: placed.status,
        status: callStateOf(placed.status) ?? 'pending',
      },
      now(),
    );
    // Not recorded: a status callback got there first and recorded the same call id with a newer status.
    deps.logger?.info('Call placed', { commandId: command.id, callId: call.id, provider: placed.provider, recordedByWorker: recorded });
  } catch (error) {
    // A TelephonyError's message is safe to show (no credentials) and names Twilio's code (21211, 20003, …).
    const reason =
      error instanceof TelephonyError
        ? error.message
        : `the call could not be placed (${error instanceof Error ? error.name : 'unknown error'}); not dialled again to avoid a second ring`;
    await deps.calls.failRequested(command.id, call.id, requestedAt, reason, now());
    deps.logger?.warn('Call failed', { commandId: command.id, callId: call.id, reason });
  }
}
