import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eventually } from '../support/embedded';
import { call } from '../support/http';
import { npmStart, settlesWithin, type NpmStart } from '../support/npm-start';

/**
 * The voice assistant end to end, as a user tries it: `npm start` without
 * Twilio settings, a stakeholder coordination with a phone number, then
 * `npm run call:local` answers the ringing call, says three lines read from
 * its input (one a question the assistant answers from its brief), and
 * hangs up at the end of input; the meeting summary appears on the command.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const API_KEY = 'sbk_e2e-npm-start-voice-key-000001';
const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

let run: NpmStart;

beforeAll(async () => {
  run = await npmStart({
    API_KEY,
    TWILIO_ACCOUNT_SID: undefined,
    TWILIO_AUTH_TOKEN: undefined,
    TWILIO_FROM_NUMBER: undefined,
    TWILIO_API_BASE_URL: undefined,
    PUBLIC_BASE_URL: undefined,
  });
});

afterAll(() => run.kill());

/** Runs `npm run call:local` with `input` on its stdin; resolves with its output once it exits (or fails after the deadline). */
function callLocal(args: string[], input: string, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'call:local', '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '', API_KEY },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`call:local did not finish in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
    child.stdin.end(input);
  });
}

describe('npm start + npm run call:local', () => {
  it('answers the call, talks with the assistant, hangs up, and the meeting summary appears', async () => {
    const accepted = await call(run.url, 'POST', '/api/agents/cmo/stakeholder-coordination', {
      key: API_KEY,
      headers: { prefer: 'wait=20' },
      body: {
        site_id: SITE,
        lead_id: LEAD,
        meeting_agenda: ['Winter campaign results', 'Budget for January'],
        phone_numbers: ['+14155550123'],
      },
    });
    expect(accepted.body.data).toMatchObject({ status: 'completed', call: { provider: 'local' } });
    const id = String(accepted.body.data?.command_id);
    await eventually(
      async () => {
        const live = (await call(run.url, 'GET', `/api/commands/${id}`, { key: API_KEY })).body.data?.call as
          Record<string, unknown> | undefined;
        return live?.provider_status === 'ringing' ? live : undefined;
      },
      10_000,
      'the call to ring',
    );

    const lines = [
      'Yes, this is a good time.',
      "What's on the agenda?",
      'We decided to move 10 percent of the events budget to paid search. Maya will send the plan by Friday.',
    ];
    const { code, output } = await callLocal([id, '--url', run.url], `${lines.join('\n')}\n`, 60_000);
    expect(code).toBe(0);
    expect(output).toContain(`command ${id}`);
    expect(output.match(/^Assistant: /gm)).toHaveLength(4);
    expect(output).toMatch(/^Assistant: Hello, this is /m);
    // Without a model the offline writer answers the question from the brief, then comes back to its point.
    expect(output).toMatch(
      /^Assistant: The agenda is Winter campaign results and Budget for January\. Back to performance metrics review: /m,
    );
    expect(output).toMatch(/^Hung up after \d+ s\.$/m);
    expect(output).toContain('Meeting summary (completed, by offline)');

    const read = await eventually(
      async () => {
        const data = (await call(run.url, 'GET', `/api/commands/${id}`, { key: API_KEY })).body.data;
        return (data?.meeting_summary as { status?: string } | undefined)?.status === 'completed' ? data : undefined;
      },
      30_000,
      'the meeting summary',
    );
    expect(read).toMatchObject({
      call: { status: 'completed', provider: 'local', duration_seconds: expect.any(Number) },
      meeting_summary: {
        status: 'completed',
        generated_by: 'offline',
        decisions: ['We decided to move 10 percent of the events budget to paid search.'],
        action_items: [expect.objectContaining({ assignee: 'Maya', due_date: 'Friday' })],
      },
    });
    const transcript = read.transcript as { role: string; content: string }[];
    expect(transcript.filter((entry) => entry.role === 'user').map((entry) => entry.content)).toEqual(lines);
    expect(transcript.filter((entry) => entry.role === 'assistant')).toHaveLength(4);
  }, 90_000);

  it('stops cleanly on Ctrl-C', async () => {
    run.signalGroup('SIGINT');
    expect(await settlesWithin(run.closed, 15_000)).toBe(true);
  });
});
