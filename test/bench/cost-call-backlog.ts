import type { LocalRuntime } from '../../infra/local/runtime';
import { LOCAL_CALLS_PATH, type LocalAnswer, type LocalCallView } from '../../infra/local/relay-control';
import { openRelayCaller } from '../../infra/local/relay-caller';
import { DEMO_LEAD_ID, DEMO_SITE_ID } from '../../shared/api/examples';
import { mapInLanes } from './backlog';
import { PROVIDER_LATENCY, type Backlog, type CallTraffic } from './cost-backlogs';

/** What the stakeholder says, turn by turn (cycled): none of it a goodbye, so the assistant never ends the call first. */
const LINES = [
  'Yes, this is a good time.',
  "What's on the agenda?",
  'The winter campaign brought forty new leads from the events page.',
  'We decided to move 10 percent of the events budget to paid search.',
  'Maya will send the plan by Friday.',
  'Can we keep the January budget as it is?',
  'I need the landing page copy reviewed by Monday.',
  'We should add a webinar in February.',
  'Who owns the paid search report?',
  'That sounds right to me.',
];

/** How long the calls are awaited to ring, and their meeting summaries once they ended. */
const SUMMARY_DEADLINE_MS = 120_000;

/**
 * Stakeholder coordinations with one phone number each, on the offline
 * writer and the local telephony: the bench answers every call as Twilio's
 * ConversationRelay does (the signed socket, `setup`), says `turns` lines,
 * each answered by the assistant, and hangs up; the post-call summary is
 * then written. Its waits are stated: the meeting details' model call and
 * Twilio's create on the call queue, the summary's model call, a streamed
 * reply per turn on the relay socket.
 */
export function stakeholderCallBacklog(turns: number): Backlog {
  let ids: string[] = [];
  let traffic: CallTraffic = noTraffic();
  return {
    name: 'stakeholder_call',
    acceptFunction: 'stakeholderCoordinationApi',
    settings: () => ({
      OPENAI_API_KEY: undefined,
      TWILIO_ACCOUNT_SID: undefined,
      TWILIO_AUTH_TOKEN: undefined,
      TWILIO_FROM_NUMBER: undefined,
      TWILIO_API_BASE_URL: undefined,
      PUBLIC_BASE_URL: undefined,
    }),
    enqueue: async (runtime, count) => {
      traffic = noTraffic();
      ids = await mapInLanes(
        Array.from({ length: count }, (_, index) => index),
        async (index) => {
          const response = await fetch(`${runtime.url}/api/agents/cmo/stakeholder-coordination`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': runtime.apiKey },
            // No title or objective: the call phase settles them with the model, as most callers leave them to it.
            body: JSON.stringify({
              site_id: DEMO_SITE_ID,
              lead_id: DEMO_LEAD_ID,
              meeting_agenda: ['Winter campaign results', 'Budget for January'],
              phone_numbers: [`+1415555${String(1_000 + index).padStart(4, '0')}`],
            }),
          });
          const text = await response.text();
          if (response.status !== 202) throw new Error(`Stakeholder coordination answered ${response.status}: ${text}`);
          return String((JSON.parse(text) as { data: { command_id: string } }).data.command_id);
        },
      );
    },
    converse: async (runtime, readCommand) => {
      const calls = await ringingCalls(runtime, ids);
      await mapInLanes(calls, (call) => talkThrough(runtime, call, turns, traffic));
      const telephony = runtime.localTelephony!;
      for (const call of telephony.calls()) traffic.webhookRequests += call.callbacks.length + (call.sessionReport ? 1 : 0);
      await untilSummarised(ids, readCommand);
    },
    callTraffic: () => traffic,
    waitsFor: ['call'],
    providerRequests: () => ({}),
    providerWaitMs: (queue) =>
      queue === 'call'
        ? PROVIDER_LATENCY.meetingDetailsModelCall + PROVIDER_LATENCY.twilioCreateCall
        : queue === 'summary'
          ? PROVIDER_LATENCY.summaryModelCall
          : 0,
    assumptions:
      `the meeting details' model call ${PROVIDER_LATENCY.meetingDetailsModelCall / 1000} s and Twilio's create ` +
      `${PROVIDER_LATENCY.twilioCreateCall} ms (call job), the summary's model call ${PROVIDER_LATENCY.summaryModelCall / 1000} s, ` +
      `a reply streamed in ${PROVIDER_LATENCY.voiceReply / 1000} s, ${turns} turns of ${PROVIDER_LATENCY.turnSeconds} s a call`,
    close: async () => undefined,
  };
}

function noTraffic(): CallTraffic {
  return { webhookRequests: 0, relayInvocations: 0, relayMessagesIn: 0, relayMessagesOut: 0, replies: 0, connectionMinutes: 0 };
}

/** The local calls of `ids`, once every one rings. */
async function ringingCalls(runtime: LocalRuntime, ids: readonly string[]): Promise<LocalCallView[]> {
  const wanted = new Set(ids);
  const deadline = performance.now() + SUMMARY_DEADLINE_MS;
  for (;;) {
    const response = await fetch(`${runtime.url}${LOCAL_CALLS_PATH}`);
    const { data } = (await response.json()) as { data: { calls: LocalCallView[] } };
    const ringing = data.calls.filter((call) => call.status === 'ringing' && call.command_id && wanted.has(call.command_id));
    if (ringing.length === wanted.size) return ringing;
    if (performance.now() > deadline) throw new Error(`Only ${ringing.length} of ${wanted.size} calls rang in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Answers `call`, says `turns` lines on its relay socket (each answered), hangs up; adds what went over the socket to `traffic`. */
async function talkThrough(runtime: LocalRuntime, call: LocalCallView, turns: number, traffic: CallTraffic): Promise<void> {
  const answer = (await control(runtime, call.sid, 'answer')) as LocalAnswer;
  const caller = await openRelayCaller(answer.connect_url, answer.signature);
  caller.setup(call.sid, answer.custom_parameters, { from: answer.from, to: answer.to });
  let said = 0;
  for (; said < turns; said++) {
    const reply = await caller.say(LINES[said % LINES.length]!);
    if (reply === undefined) throw new Error(`The assistant ended call ${call.sid} after ${said} turns`);
  }
  caller.close(1000);
  await caller.closed;
  await control(runtime, call.sid, 'hangup');
  // $connect, setup, each prompt, $disconnect: each an invocation of the relay function, each message in a billed message.
  traffic.relayInvocations += 3 + said;
  traffic.relayMessagesIn += 1 + said;
  traffic.relayMessagesOut += caller.received.length;
  traffic.replies += said;
  traffic.connectionMinutes += (said * PROVIDER_LATENCY.turnSeconds) / 60;
}

async function control(runtime: LocalRuntime, sid: string, action: 'answer' | 'hangup'): Promise<unknown> {
  const response = await fetch(`${runtime.url}${LOCAL_CALLS_PATH}/${sid}/${action}`, { method: 'POST' });
  const body = (await response.json()) as { data?: unknown };
  if (response.status !== 200) throw new Error(`The local telephony answered ${response.status} to ${action} ${sid}`);
  return body.data;
}

/** Resolves once every command's meeting summary is written (read past the tally: `readCommand` is the bench's own client). */
async function untilSummarised(ids: readonly string[], readCommand: (id: string) => Promise<Record<string, unknown> | undefined>) {
  const deadline = performance.now() + SUMMARY_DEADLINE_MS;
  const pending = new Set(ids);
  while (pending.size > 0) {
    for (const id of [...pending]) {
      const summary = (await readCommand(id))?.meeting_summary as { status?: string } | undefined;
      if (summary?.status === 'completed') pending.delete(id);
      else if (summary?.status === 'skipped') throw new Error(`Command ${id}'s summary was skipped`);
    }
    if (pending.size === 0) return;
    if (performance.now() > deadline) throw new Error(`${pending.size} meeting summaries were not written in time`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
