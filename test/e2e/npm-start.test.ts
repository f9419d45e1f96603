import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { call } from '../support/http';

/**
 * `npm start` as a user runs it: a separate process, the banner, a request
 * answered end to end, and a clean stop on Ctrl-C (SIGINT).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const API_KEY = 'sbk_e2e-npm-start-key-000001';

let child: ChildProcess;
let output = '';

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', API_KEY, OPENAI_API_KEY: '', LOG_LEVEL: 'ERROR', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!/running at http:\/\/\S+/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start did not come up:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

const baseUrl = () => /running at (http:\/\/\S+)/.exec(output)![1]!;

describe('npm start', () => {
  it('prints the URL, the providers and the embedded endpoints, never the API_KEY it was given', () => {
    expect(output).toMatch(/providers:\s+LLM offline/);
    expect(output).toMatch(/embedded DynamoDB: http:\/\/127\.0\.0\.1:\d+/);
    expect(output).toMatch(/embedded SQS:\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(output).not.toContain(API_KEY);
  });

  it('serves a lead follow-up end to end', async () => {
    expect((await call(baseUrl(), 'GET', '/health')).status).toBe(200);
    const answer = await call(baseUrl(), 'POST', '/api/agents/sales/leadFollowUp', {
      key: API_KEY,
      headers: { prefer: 'wait=20' },
      body: { siteId: '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c', leadId: 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ generated_by: 'offline', messages: { email: expect.any(Object), web: expect.any(Object) } });
  });

  it('stops cleanly on SIGINT', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
