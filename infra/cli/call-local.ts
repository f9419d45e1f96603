import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { isUuid } from '../../shared/platform/ids';
import { LOCAL_CALLS_PATH, type LocalAnswer, type LocalCallView } from '../local/relay-control';
import { openRelayCaller, RelayRefusedError, type RelayCaller } from '../local/relay-caller';
import { localRuntimeUrl } from './local-url';
import { fail } from './table';

const USAGE = `Usage: npm run call:local -- [CALL_SID | COMMAND_ID] [--url URL] [--key API_KEY] [--list]

The terminal end of the local telephony of \`npm start\` (no Twilio settings): answers a ringing
local call, connects to the voice assistant as Twilio's ConversationRelay does, and lets you talk:
each line you type is what you say; the assistant's replies are printed. /press 5 presses a key,
/bye (or end of input, Ctrl-D) hangs up. Then the meeting summary is written; with an API key
(--key or API_KEY) it is printed once ready.

Without CALL_SID or COMMAND_ID it answers the newest ringing call, waiting for one.
--url     the running npm start (default http://HOST:PORT, i.e. http://127.0.0.1:3000)
--list    print the local calls and exit`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { url: { type: 'string' }, key: { type: 'string' }, list: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});
if (values.help || positionals.length > 1) fail(USAGE);
const target = positionals[0]?.trim();
if (target !== undefined && !/^CA[0-9a-f]{32}$/.test(target) && !isUuid(target))
  fail(`"${target}" is neither a call sid (CA…) nor a command id.\n\n${USAGE}`);
const baseUrl = (values.url ?? localRuntimeUrl()).replace(/\/+$/, '');
const apiKey = values.key ?? process.env.API_KEY;
const out = (text: string) => process.stdout.write(`${text}\n`);

const calls = await listCalls();
if (values.list) {
  if (calls.length === 0) out('No local calls.');
  for (const call of calls)
    out(`${call.sid}  ${call.status.padEnd(11)}  to ${call.to}  command ${call.command_id ?? '-'}  ${call.created_at}`);
  process.exit(0);
}

const call = await ringingCall();
out(`Answering ${call.sid} (to ${call.to}, command ${call.command_id ?? 'unknown'})…`);
const answer = await post<LocalAnswer>(`${LOCAL_CALLS_PATH}/${call.sid}/answer`);
let caller: RelayCaller;
try {
  caller = await openRelayCaller(answer.connect_url, answer.signature);
} catch (error) {
  await post(`${LOCAL_CALLS_PATH}/${call.sid}/hangup`).catch(() => undefined);
  fail(
    error instanceof RelayRefusedError
      ? `The voice assistant refused the call (HTTP ${error.status}).`
      : `Could not reach the voice assistant: ${String(error)}`,
  );
}
caller.setup(call.sid, answer.custom_parameters, { from: answer.from, to: answer.to });
let closedBy: string | undefined;
let hangingUp = false;
void caller.closed.then(({ code, reason }) => {
  if (!hangingUp) closedBy = reason || `code ${code}`;
});
if (answer.welcome_greeting) out(`Assistant: ${answer.welcome_greeting}`);
out('(type what you say; /bye hangs up)');

const lines = lineReader();
for (;;) {
  if (process.stdin.isTTY) process.stdout.write('You: ');
  const line = await Promise.race([lines.next(), caller.closed.then(() => null)]);
  if (line === null || line === undefined) break;
  const words = line.trim();
  if (words === '') continue;
  if (words === '/bye') break;
  const key = /^\/press\s+([0-9*#])$/.exec(words);
  if (key) {
    caller.press(key[1]!);
    continue;
  }
  const reply = await caller.say(words);
  if (reply) out(`Assistant: ${reply}`);
  if (caller.received.some((message) => message.type === 'end')) {
    out('(the assistant ended the call)');
    break;
  }
}
lines.close();

hangingUp = true;
caller.close(1000);
await Promise.race([caller.closed, new Promise((resolve) => setTimeout(resolve, 2_000))]);
if (closedBy && !caller.received.some((message) => message.type === 'end')) out(`(the socket closed: ${closedBy})`);
const ended = await post<LocalCallView>(`${LOCAL_CALLS_PATH}/${call.sid}/hangup`).catch(() => undefined);
out(`Hung up${ended?.duration_seconds !== null && ended?.duration_seconds !== undefined ? ` after ${ended.duration_seconds} s` : ''}.`);

if (call.command_id) await showSummary(call.command_id);

async function listCalls(): Promise<LocalCallView[]> {
  const response = await fetch(`${baseUrl}${LOCAL_CALLS_PATH}`).catch(() =>
    fail(`Nothing answers at ${baseUrl}: is \`npm start\` running? (--url sets its address)`),
  );
  if (response.status === 404)
    fail(
      `${baseUrl} has no local telephony: \`npm start\` uses it only when none of TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER is set.`,
    );
  const body = (await response.json()) as { data?: { calls?: LocalCallView[] } };
  return body.data?.calls ?? [];
}

/** The call to answer: the one named, else the newest ringing one (waiting until one rings). */
async function ringingCall(): Promise<LocalCallView> {
  let told = false;
  for (;;) {
    const current = await listCalls();
    const wanted = current.filter((candidate) =>
      target ? candidate.sid === target || candidate.command_id === target.toLowerCase() : true,
    );
    const ringing = wanted.filter((candidate) => candidate.status === 'ringing');
    if (ringing.length > 0) return ringing[ringing.length - 1]!;
    if (target && wanted.length > 0) fail(`Call ${wanted[wanted.length - 1]!.sid} is ${wanted[wanted.length - 1]!.status}, not ringing.`);
    if (!told) {
      out(target ? `No ringing call for ${target} yet; waiting (Ctrl-C stops)…` : 'No ringing call yet; waiting for one (Ctrl-C stops)…');
      told = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function post<T>(path: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST' });
  const body = (await response.json()) as { data?: T; error?: { message?: string } };
  if (!response.ok || !body.data) throw new Error(body.error?.message ?? `HTTP ${response.status}`);
  return body.data;
}

/** Lines of stdin, one at a time; undefined at the end of input. */
function lineReader(): { next(): Promise<string | undefined>; close(): void } {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const queued: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let done = false;
  rl.on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter(line);
    else queued.push(line);
  });
  rl.on('close', () => {
    done = true;
    for (const waiter of waiting.splice(0)) waiter(undefined);
  });
  return {
    next: () =>
      queued.length > 0
        ? Promise.resolve(queued.shift())
        : done
          ? Promise.resolve(undefined)
          : new Promise((resolve) => waiting.push(resolve)),
    close: () => rl.close(),
  };
}

/** Prints the meeting summary once written (with an API key), else how to read it. */
async function showSummary(commandId: string): Promise<void> {
  const read = `curl -s ${baseUrl}/api/commands/${commandId} -H "x-api-key: $API_KEY"`;
  if (!apiKey) {
    out(`The meeting summary is being written; read it with:\n  ${read}`);
    return;
  }
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/api/commands/${commandId}`, { headers: { 'x-api-key': apiKey } });
    const body = (await response.json()) as { data?: { meeting_summary?: Record<string, unknown> } };
    const summary = body.data?.meeting_summary;
    if (summary && summary.status !== 'pending') {
      out(`Meeting summary (${String(summary.status)}${summary.generated_by ? `, by ${String(summary.generated_by)}` : ''}):`);
      out(JSON.stringify(summary, null, 2));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  out(`The meeting summary is not ready yet; read it later with:\n  ${read}`);
}
