import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai';
import { eventually } from '../support/embedded';
import { call } from '../support/http';
import { npmStart, settlesWithin, type NpmStart } from '../support/npm-start';
import { tempDir } from '../support/temp-dir';

/**
 * How `npm start` ends: SIGTERM to the npm process alone, Ctrl-C with a job
 * stuck in a provider call that never answers, and a second Ctrl-C.
 */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const NO_SUCH_COMMAND = '0190a5e0-0000-7000-8000-000000000000';

const started: NpmStart[] = [];
let openai: OpenAiFake;

beforeAll(async () => {
  openai = await startOpenAiFake();
  openai.respondWith(() => ({ hangMs: 600_000 }));
});
afterAll(async () => {
  started.forEach((run) => run.kill());
  await openai.close();
});

async function start(env: Record<string, string | undefined> = {}): Promise<NpmStart> {
  const run = await npmStart(env);
  started.push(run);
  return run;
}

const keyIn = (output: string) => /API key \(tenant "local", .*\): (sbk_\S+)/.exec(output)?.[1];
const answers = (url: string) =>
  fetch(`${url}/health`).then(
    () => true,
    () => false,
  );

/** Starts `npm start` on the fake provider and waits until a lead follow-up job is stuck in its call. */
async function startWithStuckJob(): Promise<NpmStart> {
  const run = await start({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.baseUrl });
  const key = keyIn(run.output())!;
  const before = openai.requests.length;
  expect(
    (await call(run.url, 'POST', '/api/agents/sales/leadFollowUp', { key, body: { siteId: DEMO_SITE, leadId: DEMO_LEAD } })).status,
  ).toBe(202);
  await eventually(async () => (openai.requests.length > before ? true : undefined), 15_000, 'the job to reach the provider');
  return run;
}

describe('npm start, stopping', () => {
  it('stops serving when SIGTERM reaches the npm process alone, and a restart with DATA_DIR reuses its key', async () => {
    const dataDir = tempDir('npm');
    const first = await start({ DATA_DIR: dataDir });
    const key = keyIn(first.output());
    expect(key).toBeDefined();
    expect((await call(first.url, 'GET', `/api/commands/${NO_SUCH_COMMAND}`, { key })).status).toBe(404);

    process.kill(first.child.pid!, 'SIGTERM');
    await eventually(async () => ((await answers(first.url)) ? undefined : true), 15_000, 'the port to stop answering');
    expect(await settlesWithin(first.closed, 15_000)).toBe(true);
    expect((await stat(join(dataDir, 'api-key'))).mode & 0o777).toBe(0o600);

    const second = await start({ DATA_DIR: dataDir });
    expect(keyIn(second.output())).toBe(key);
    expect((await readFile(join(dataDir, 'api-key'), 'utf8')).trim()).toBe(key);
    expect((await call(second.url, 'GET', `/api/commands/${NO_SUCH_COMMAND}`, { key })).status).toBe(404);
    second.signalGroup('SIGINT');
    expect(await settlesWithin(second.closed, 15_000)).toBe(true);
  }, 90_000);

  it('on Ctrl-C with a job stuck in a provider call, says what it waits for and exits within 10 s', async () => {
    const run = await startWithStuckJob();
    const signalled = Date.now();
    run.signalGroup('SIGINT');
    expect(await settlesWithin(run.closed, 12_000)).toBe(true);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(run.output()).toMatch(/waiting for 1 job\(s\) in hand \(sales\)/);
    expect(run.output()).toMatch(/gave up after 5 s on 1 job\(s\) \(sales\)/);
    expect(await answers(run.url)).toBe(false);
  }, 60_000);

  it('exits at once on a second Ctrl-C', async () => {
    const run = await startWithStuckJob();
    run.signalGroup('SIGINT');
    await eventually(
      async () => (/waiting for 1 job\(s\) in hand/.test(run.output()) ? true : undefined),
      5_000,
      'the stop to start waiting',
    );
    const again = Date.now();
    run.signalGroup('SIGINT');
    expect(await settlesWithin(run.closed, 5_000)).toBe(true);
    expect(Date.now() - again).toBeLessThan(2_000);
    expect(run.output()).toContain('SIGINT again: exiting now.');
    expect(run.output()).not.toMatch(/gave up after/);
  }, 60_000);
});
