import { openRelayCaller, type RelayCaller } from '../../infra/local/relay-caller';
import { LOCAL_CALLS_PATH, type LocalAnswer, type LocalCallView } from '../../infra/local/relay-control';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { startOpenAiFake } from '../fakes/openai';
import { percentile } from './load';
import { markdownTable, median } from './table';

/**
 * Bench part `relay`: streamed replies on the ConversationRelay socket of
 * the local runtime (its socket server, the socket function, the embedded
 * DynamoDB), with an OpenAI fake that streams each answer in 30 chunks 20 ms
 * apart. One call is placed through the API and the local telephony and
 * answered as ConversationRelay does; then BENCH_RELAY_TURNS prompts (after
 * one warm-up turn), each timed from the prompt to the first `text` token
 * and to `last: true`, and from the model's first chunk (as the fake wrote
 * it, in this process) to the first token. Goal: the first token within
 * 50 ms of the model's first chunk (median and p95).
 */
const TURNS = Number(process.env.BENCH_RELAY_TURNS ?? 30);
const CHUNKS = 30;
const INTERVAL_MS = 20;
const GOAL_MS = 50;
/** A caller's pause between the end of a reply and their next words (the turn's write happens in it, as on a call). */
const CALLER_PAUSE_MS = 100;
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const REPLY =
  'Thank you, that is helpful. The winter campaign brought one hundred and forty two conversions for four thousand two hundred dollars, ' +
  'which is well within the plan we agreed last month. Before we move on to the budget for January, ' +
  'which of these results would you like me to note as a decision, and who should own the next step?';

if (TURNS < 1 || TURNS > 38) throw new Error('BENCH_RELAY_TURNS must be 1 to 38 (a call closes after 40 caller turns)');

async function main(): Promise<void> {
  process.env.LOG_LEVEL = 'ERROR';
  const openai = await startOpenAiFake();
  openai.respondWith((body) =>
    (body as { stream?: unknown }).stream === true
      ? { stream: { text: REPLY, chunks: CHUNKS, intervalMs: INTERVAL_MS } }
      : { status: 500, error: { message: 'the relay bench answers streamed requests only', type: 'server_error', code: null } },
  );
  const runtime = await startLocalRuntime({
    port: 0,
    scheduleEveryMs: 0,
    settings: {
      LOG_LEVEL: 'ERROR',
      OPENAI_API_KEY: 'bench-openai-key',
      OPENAI_BASE_URL: openai.baseUrl,
      OPENAI_MODEL: 'gpt-bench',
      TWILIO_ACCOUNT_SID: undefined,
      TWILIO_AUTH_TOKEN: undefined,
      TWILIO_FROM_NUMBER: undefined,
    },
  });
  let caller: RelayCaller | undefined;
  try {
    caller = await answeredCall(runtime);
    await turn(caller, 'Hello, yes, this is a good time.');
    const rows = { promptToFirst: [] as number[], modelToFirst: [] as number[], promptToLast: [] as number[], tokens: [] as number[] };
    for (let index = 0; index < TURNS; index++) {
      await new Promise((resolve) => setTimeout(resolve, CALLER_PAUSE_MS));
      const stream = openai.streams.length;
      const timed = await turn(caller, `Here is my view on point ${index + 1}: the results look good to me.`);
      const modelFirst = openai.streams[stream]?.firstChunkAt;
      if (modelFirst === undefined) throw new Error('The model fake streamed nothing for a turn');
      rows.promptToFirst.push(timed.firstAt - timed.sentAt);
      rows.modelToFirst.push(timed.firstAt - modelFirst);
      rows.promptToLast.push(timed.lastAt - timed.sentAt);
      rows.tokens.push(timed.tokens);
    }
    const line = (name: string, values: number[], goal: string) => [
      name,
      median(values).toFixed(1),
      percentile(values, 95).toFixed(1),
      goal,
    ];
    const met = median(rows.modelToFirst) <= GOAL_MS && percentile(rows.modelToFirst, 95) <= GOAL_MS;
    process.stdout.write(
      [
        '## Relay: streamed replies on the local runtime',
        '',
        `${TURNS} turns of one call (after a warm-up turn); the model fake streams a ${REPLY.length}-character reply in ${CHUNKS} chunks ` +
          `${INTERVAL_MS} ms apart (${(CHUNKS - 1) * INTERVAL_MS} ms from its first chunk to its last); ` +
          `${median(rows.tokens)} text tokens a reply (median).`,
        '',
        markdownTable(
          ['interval', 'median ms', 'p95 ms', 'goal'],
          [
            line('prompt → first text token', rows.promptToFirst, '-'),
            line("model's first chunk → first text token", rows.modelToFirst, `≤ ${GOAL_MS} ms`),
            line('prompt → last: true', rows.promptToLast, '-'),
          ],
        ),
        '',
        `Goal: the first token within ${GOAL_MS} ms of the model's first chunk (median and p95) — ${met ? 'met' : 'NOT met'}.`,
        '',
        '',
      ].join('\n'),
    );
  } finally {
    caller?.close();
    if (caller) await Promise.race([caller.closed, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    await runtime.stop();
    await openai.close();
  }
}

/** Places a stakeholder call through the API and answers it as ConversationRelay does (setup sent). */
async function answeredCall(runtime: LocalRuntime): Promise<RelayCaller> {
  const accepted = await fetch(`${runtime.url}/api/agents/cmo/stakeholder-coordination`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': runtime.apiKey },
    body: JSON.stringify({
      site_id: DEMO_SITE,
      lead_id: DEMO_LEAD,
      meeting_title: 'Winter campaign review',
      meeting_objective: 'Agree the January budget',
      meeting_agenda: ['Winter campaign results', 'Budget for January'],
      phone_numbers: ['+14155550123'],
    }),
  });
  const { data } = (await accepted.json()) as { data?: { command_id?: string } };
  if (accepted.status !== 202 || !data?.command_id) throw new Error(`The stakeholder request was not accepted (HTTP ${accepted.status})`);
  const ringing = await ringingCall(runtime, data.command_id);
  const answered = await fetch(`${runtime.url}${LOCAL_CALLS_PATH}/${ringing.sid}/answer`, { method: 'POST' });
  const answer = ((await answered.json()) as { data: LocalAnswer }).data;
  const caller = await openRelayCaller(answer.connect_url, answer.signature);
  caller.setup(ringing.sid, answer.custom_parameters);
  return caller;
}

/** The command's local call once it rings (the call worker places it), within 30 s. */
async function ringingCall(runtime: LocalRuntime, commandId: string): Promise<LocalCallView> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const listed = await fetch(`${runtime.url}${LOCAL_CALLS_PATH}`);
    const calls = ((await listed.json()) as { data?: { calls?: LocalCallView[] } }).data?.calls ?? [];
    const call = calls.find((candidate) => candidate.command_id === commandId && candidate.status === 'ringing');
    if (call) return call;
    if (Date.now() > deadline) throw new Error('The stakeholder call did not ring within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One turn: the prompt, then its text tokens up to `last: true`, timed. */
async function turn(caller: RelayCaller, words: string): Promise<{ sentAt: number; firstAt: number; lastAt: number; tokens: number }> {
  const sentAt = performance.now();
  caller.prompt(words);
  let firstAt = 0;
  let tokens = 0;
  for (;;) {
    const message = await caller.next('text');
    if (!message || message.type !== 'text') throw new Error('The socket closed before the reply ended');
    tokens += 1;
    if (tokens === 1) firstAt = performance.now();
    if (message.last) return { sentAt, firstAt, lastAt: performance.now(), tokens };
  }
}

await main();
