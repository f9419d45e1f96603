import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';

/**
 * README "A short tour", as written: the key it starts `npm start` with,
 * then every shell block after it, in order, in one bash (`set -euo
 * pipefail`, so a capture that finds no id fails it) against the local
 * runtime. Each curl's HTTP status is recorded and compared with the
 * status its `# NNN …` comment shows.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const start = README.indexOf('## A short tour');
const SECTION = README.slice(start, README.indexOf('\n## ', start + 1));
const BLOCKS = [...SECTION.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
const DOCUMENTED_URL = 'http://127.0.0.1:3000';

/** The statuses the blocks show, one `# NNN` comment per curl. */
function documentedStatuses(script: string): string[] {
  return [...script.matchAll(/^# (\d{3}) /gm)].map((match) => match[1]!);
}

function curlCount(script: string): number {
  return script.split('\n').filter((line) => !line.trimStart().startsWith('#') && /(^|\$\(|\s)curl\s/.test(line)).length;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runBash(script: string, timeoutMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let runtime: LocalRuntime;
const startBlock = BLOCKS[0] ?? '';
const apiKey = /API_KEY=(\S+) npm start/.exec(startBlock)?.[1];

beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    scheduleEveryMs: 0,
    ...(apiKey ? { apiKey } : {}),
    settings: {
      LOG_LEVEL: 'SILENT',
      OPENAI_API_KEY: undefined,
      GOOGLE_CSE_API_KEY: undefined,
      BRAVE_API_KEY: undefined,
      PERPLEXITY_API_KEY: undefined,
    },
  });
});
afterAll(() => runtime?.stop());

describe('README: a short tour', () => {
  it('starts npm start with a key of its own, and uses that key and the demo data', () => {
    expect(BLOCKS.length).toBeGreaterThan(3);
    expect(apiKey).toMatch(/^sbk_\w{16,}$/);
    expect(BLOCKS[1]).toContain(`KEY=${apiKey}`);
    expect(BLOCKS[1]).toContain(`URL=${DOCUMENTED_URL}`);
    expect(runtime.siteIds).toContain(/SITE=(\S+)/.exec(BLOCKS[1]!)?.[1]);
  });

  it('sends every body as JSON, and gives each Idempotency-Key to one request only', () => {
    const script = BLOCKS.slice(1).join('\n');
    const posts = script.split(/(?=curl )/).filter((call) => / -d /.test(call));
    expect(posts.length).toBeGreaterThan(5);
    for (const post of posts) expect(post).toContain("-H 'content-type: application/json'");
    const keys = [...script.matchAll(/Idempotency-Key: ([^'"]+)/g)].map((match) => match[1]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(script).not.toMatch(/20\d\d-\d\d-\d\dT/); // no date that expires: times are computed
  });

  it('runs in order as written, and every curl answers the status the README shows', async () => {
    const script = BLOCKS.slice(1).join('\n').replaceAll(DOCUMENTED_URL, runtime.url);
    const expected = documentedStatuses(script);
    expect(expected).toHaveLength(curlCount(script));
    const prelude = [
      'set -euo pipefail',
      // Records each answer's status on stderr; the blocks' own output (and captures) are untouched.
      'curl() { command curl -w \'%{stderr}HTTP_STATUS %{http_code}\\n\' "$@"; }',
    ].join('\n');
    const run = await runBash(`${prelude}\n${script}`, 150_000);
    const statuses = [...run.stderr.matchAll(/^HTTP_STATUS (\d{3})$/gm)].map((match) => match[1]);
    expect({ code: run.code, statuses }).toEqual({ code: 0, statuses: expected });
  }, 180_000);
});
