import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import { lambdaContext } from '../../../infra/local/lambda-context';
import type { HttpEvent } from '../../../shared/platform/http/types';
import { FunctionProcess } from '../../bench/function-process';
import { lambdaNodeFlags } from '../../bench/lambda-runtime';

/** A handler that allocates, waits a little, and answers with what it was sent; `fail` makes it throw. */
const HANDLER = `
export const handler = async (event, context) => {
  if (event.body === 'fail') throw new Error('asked to fail');
  const objects = Array.from({ length: 100_000 }, (_, index) => ({ index }));
  await new Promise((resolve) => setTimeout(resolve, 40));
  return { statusCode: 200, body: JSON.stringify({ body: event.body, objects: objects.length, memory: context.memoryLimitInMB }) };
};
`;

const event = (body: string) => ({ version: '2.0', rawPath: '/', body }) as unknown as HttpEvent;
const context = (): Context => lambdaContext('getCommandApi', 5);

describe('FunctionProcess (the sizing bench’s sandbox)', () => {
  let dir: string;
  let sandbox: FunctionProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-sandbox-'));
    await writeFile(join(dir, 'index.mjs'), HANDLER);
    sandbox = await FunctionProcess.start(join(dir, 'index.mjs'), { PATH: process.env.PATH ?? '' }, lambdaNodeFlags(256));
  });

  afterAll(async () => {
    await sandbox.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('invokes the handler in its own process and reports the CPU time each invocation took', async () => {
    const { result, cpuUs, ms } = await sandbox.invoke(event('hello'), context());
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ body: 'hello', objects: 100_000, memory: '256' });
    expect(cpuUs).toBeGreaterThan(0);
    expect(ms).toBeGreaterThanOrEqual(35);
    expect(sandbox.invocations.at(-1)).toEqual({ cpuUs, ms });
  });

  it('runs one invocation at a time, as a Lambda sandbox does', async () => {
    const started = performance.now();
    const answers = await Promise.all([sandbox.invoke(event('a'), context()), sandbox.invoke(event('b'), context())]);
    expect(answers.map((answer) => JSON.parse(answer.result.body).body)).toEqual(['a', 'b']);
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });

  it("rejects with the handler's error, and goes on serving", async () => {
    await expect(sandbox.invoke(event('fail'), context())).rejects.toThrow('asked to fail');
    await expect(sandbox.invoke(event('again'), context())).resolves.toMatchObject({ result: { statusCode: 200 } });
  });

  it('reports the peak memory of its own program when it stops', async () => {
    const own = await FunctionProcess.start(join(dir, 'index.mjs'), { PATH: process.env.PATH ?? '' }, lambdaNodeFlags(128));
    await own.invoke(event('x'), context());
    const { peakRssMb } = await own.stop();
    expect(peakRssMb).toBeGreaterThan(20);
    // A bare Node with 100,000 small objects.
    expect(peakRssMb).toBeLessThan(150);
    expect(own.initMs).toBeGreaterThan(0);
  });
});
