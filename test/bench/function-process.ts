import { spawn, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { newCrmKey } from '../../infra/local/crm-key';
import { embeddedServiceSettings } from '../../infra/local/embedded-aws';
import type { LocalRuntime } from '../../infra/local/runtime';
import type { HttpEvent, HttpResult } from '../../shared/platform/http/types';
import { LOAD_RUNTIME_BUILTINS } from './lambda-runtime';

/**
 * The sandbox: loads the built-in modules Lambda's runtime has loaded, imports the bundle (the cold start, timed),
 * then runs one invocation per message, as Lambda does, with the CPU time the process spent on it (its only work
 * meanwhile). Its peak resident memory is reported at the end:
 * Linux's high-water mark of this program (VmHWM), else the most RSS seen after the init and each invocation. Not
 * `resourceUsage().maxRSS`, which keeps the high-water mark of the process image spawn started from, the bench's own.
 */
const CHILD = `
import { readFileSync } from 'node:fs';
let sampledPeak = process.memoryUsage().rss;
const sample = () => { sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss); };
const peakRssKb = () => {
  try {
    const hwm = /VmHWM:\\s*(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {}
  sample();
  return sampledPeak / 1024;
};
${LOAD_RUNTIME_BUILTINS}
const started = performance.now();
const module = await import(process.argv[1]);
const initMs = performance.now() - started;
if (typeof module.handler !== 'function') throw new Error('no handler');
const noop = () => undefined;
process.on('message', async (message) => {
  if (message.type === 'stop') {
    process.send({ type: 'stopped', peakRssKb: peakRssKb() }, () => process.exit(0));
    return;
  }
  const deadline = Date.now() + message.remainingMs;
  const context = { ...message.context, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()), done: noop, fail: noop, succeed: noop };
  const cpu = process.cpuUsage();
  const start = performance.now();
  try {
    const result = await module.handler(message.event, context);
    const used = process.cpuUsage(cpu);
    sample();
    process.send({ type: 'result', id: message.id, result, cpuUs: used.user + used.system, ms: performance.now() - start });
  } catch (error) {
    process.send({ type: 'result', id: message.id, error: String(error instanceof Error ? error.message : error) });
  }
});
sample();
process.send({ type: 'ready', initMs, rss: process.memoryUsage().rss });
`;

/** One invocation as the sandbox saw it. */
export interface Invocation {
  /** CPU time (user and system) of the process from the event's arrival to the handler's answer. */
  cpuUs: number;
  ms: number;
}

type ChildMessage =
  | { type: 'ready'; initMs: number; rss: number }
  | { type: 'result'; id: number; result?: HttpResult; error?: string; cpuUs?: number; ms?: number }
  | { type: 'stopped'; peakRssKb: number };

/**
 * A function's bundle in a process of its own, invoked one event at a time over IPC: its CPU time and memory are its
 * own, not the embedded services' or the bench's.
 */
export class FunctionProcess {
  /** Every invocation so far, in order. */
  readonly invocations: Invocation[] = [];
  private readonly pending = new Map<number, { resolve: (message: ChildMessage) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private turn: Promise<unknown> = Promise.resolve();
  private stopped?: Promise<{ peakRssMb: number }>;

  private constructor(
    private readonly child: ChildProcess,
    /** The cold start: the bundle's import, composition included (full CPU, as Lambda's init). */
    readonly initMs: number,
    readonly rssAfterInitMb: number,
  ) {
    child.on('message', (message: ChildMessage) => {
      const id = message.type === 'result' ? message.id : -1;
      const waiting = this.pending.get(id);
      this.pending.delete(id);
      waiting?.resolve(message);
    });
    child.once('exit', (code) => {
      for (const waiting of this.pending.values()) waiting.reject(new Error(`function process exited (${code})`));
      this.pending.clear();
    });
  }

  /**
   * Starts `file` (an ESM bundle exporting `handler`) with exactly `env` and Node's `flags`, and resolves once its cold
   * start is over.
   */
  static start(file: string, env: Record<string, string>, flags: readonly string[] = []): Promise<FunctionProcess> {
    const child = spawn(process.execPath, [...flags, '--input-type=module', '-e', CHILD, pathToFileURL(file).href], {
      env,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      child.once('message', (message: ChildMessage) => {
        if (message.type === 'ready') resolve(new FunctionProcess(child, message.initMs, message.rss / 1024 / 1024));
      });
      child.once('exit', (code) => reject(new Error(`${file} did not start (exit ${code})`)));
    });
  }

  /** Invokes the handler with `event`, after any invocation in progress (a sandbox runs one at a time). */
  invoke(event: HttpEvent, context: Context): Promise<{ result: HttpResult } & Invocation> {
    const run = async () => {
      const id = this.nextId++;
      const answered = new Promise<ChildMessage>((resolve, reject) => this.pending.set(id, { resolve, reject }));
      this.child.send({ type: 'invoke', id, event, context, remainingMs: context.getRemainingTimeInMillis() });
      const message = await answered;
      if (message.type !== 'result' || !message.result) throw new Error(message.type === 'result' ? message.error : 'no result');
      const invocation = { cpuUs: message.cpuUs ?? 0, ms: message.ms ?? 0 };
      this.invocations.push(invocation);
      return { result: message.result, ...invocation };
    };
    const result = this.turn.then(run, run);
    this.turn = result.catch(() => undefined);
    return result;
  }

  /** Ends the process; resolves with the most memory it ever held resident. */
  stop(): Promise<{ peakRssMb: number }> {
    this.stopped ??= new Promise((resolve, reject) => {
      this.pending.set(-1, {
        resolve: (message) => resolve({ peakRssMb: message.type === 'stopped' ? message.peakRssKb / 1024 : NaN }),
        reject,
      });
      this.child.send({ type: 'stop' });
    });
    return this.stopped;
  }
}

/**
 * What a function's process is given beside a local runtime: the runtime's embedded services and public address, as
 * `npm start` gives its functions, with offline providers allowed, loopback webhook endpoints accepted and a CRM key of
 * its own. Add the function's deployed settings and `AWS_LAMBDA_FUNCTION_NAME`.
 */
export function sandboxSettings(runtime: LocalRuntime): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...embeddedServiceSettings(runtime),
    LOG_LEVEL: 'ERROR',
    POWERTOOLS_SERVICE_NAME: 'switchboard',
    PUBLIC_BASE_URL: runtime.publicBaseUrl,
    ALLOW_OFFLINE_PROVIDERS: 'true',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    CRM_ENCRYPTION_KEY: newCrmKey(),
  };
}
