import { Worker } from 'node:worker_threads';
import { PageFetchError } from './errors';
import { PAGE_PARSE_WORKER } from './parse-worker-bundle';
import type { ReadablePage } from './readable-page';

/**
 * Port: an HTML page reduced to its readable text within `timeoutMs`.
 * Throws PageFetchError `timeout` when the time runs out first, and
 * `unparsable` when the parser fails on the page.
 */
export interface PageParser {
  parse(html: string, options: { maxChars: number; timeoutMs: number }): Promise<ReadablePage>;
}

/** A PageParser over worker threads, which it owns. */
export interface WorkerPageParser extends PageParser {
  /** Worker threads alive, parsing a page (or terminated and not yet exited) or idle, and the pages waiting for one. */
  workers(): { busy: number; idle: number; waiting: number };
  /** Terminates every worker: a parse still running fails, and a page waiting for a worker gets none. */
  close(): Promise<void>;
}

/** Limits of a worker page parser. */
export interface WorkerPageParserOptions {
  /**
   * Worker threads at most, parsing or kept for the next page; a page finds
   * one waiting, or waits (within its time) for one to be free. Parsing is
   * CPU-bound, so more threads than cores gain nothing, and each holds a
   * page's DOM: up to about 75 MB for a page at the reader's caps.
   * @default 2
   */
  maxWorkers?: number;
  /**
   * How long a worker waits for another page before it is terminated, in
   * milliseconds. Keeping one saves the next page a thread start and the
   * parsing libraries' load (about 0.15 s bundled, 0.6 s from source), and
   * its compiled code parses a large page about twice as fast.
   * @default 30_000
   */
  idleMs?: number;
  /**
   * Heap of one worker, in MiB; a page that needs more fails as
   * `unparsable` (a page at the reader's caps needs under 64).
   * @default 128
   */
  maxHeapMb?: number;
  /**
   * The worker's script.
   * @default the bundle beside the running bundle (Lambda), or the TypeScript source through tsx (jest, `npm start`)
   */
  script?: URL;
}

/** A page posted to a worker. */
export interface ParseRequest {
  html: string;
  maxChars: number;
}

/** A worker's answer: the page, or the name of the error the parser threw. */
export type ParseReply = { ok: true; page: ReadablePage } | { ok: false; error: string };

const DEFAULTS = { maxWorkers: 2, idleMs: 30_000, maxHeapMb: 128 } as const;

/**
 * A PageParser that parses each page in a worker thread, so the event loop
 * of the process (the HTTP server under `npm start`, the Lambda runtime's
 * loop) never waits on a DOM, and that terminates the worker when the
 * page's time runs out: a parse is stopped wherever it is, not asked to
 * stop. One page per worker at a time. A worker that answered serves the
 * next page, or waits for one, unref'd (it never holds the process open);
 * any other (late, crashed, out of memory) is terminated, never reused.
 */
export function createPageParser(options: WorkerPageParserOptions = {}): WorkerPageParser {
  const maxWorkers = options.maxWorkers ?? DEFAULTS.maxWorkers;
  const idleMs = options.idleMs ?? DEFAULTS.idleMs;
  const maxHeapMb = options.maxHeapMb ?? DEFAULTS.maxHeapMb;
  const script = options.script ?? defaultScript();
  /** Every worker whose thread has not exited yet (a terminated one counts until it has). */
  const alive = new Set<Worker>();
  const idle = new Map<Worker, NodeJS.Timeout>();
  /** Pages waiting for a worker, first come first served. */
  const waiting: Array<(worker: Worker) => void> = [];
  let closed = false;

  const spawn = () => {
    const worker = new Worker(script, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } });
    alive.add(worker);
    // A worker that dies between pages must not take the process with it; a page it was parsing hears of it through `exit`.
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      alive.delete(worker);
      clearTimeout(idle.get(worker));
      idle.delete(worker);
      const next = closed ? undefined : waiting.shift();
      if (next) next(spawn());
    });
    return worker;
  };

  /** A worker for the next page: a waiting one, a new one while under `maxWorkers`, or the next one freed. */
  const acquire = (timeoutMs: number): Promise<Worker> => {
    const [kept] = idle;
    if (kept) {
      const [worker, timer] = kept;
      clearTimeout(timer);
      idle.delete(worker);
      worker.ref();
      return Promise.resolve(worker);
    }
    if (alive.size < maxWorkers) return Promise.resolve(spawn());
    return new Promise<Worker>((resolve, reject) => {
      const take = (worker: Worker) => {
        clearTimeout(timer);
        resolve(worker);
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(take), 1);
        reject(outOfTime());
      }, timeoutMs);
      waiting.push(take);
    });
  };

  /** A worker that answered: to the next page waiting, else kept until `idleMs` passes. */
  const release = (worker: Worker) => {
    const next = waiting.shift();
    if (next) return next(worker);
    worker.unref();
    const expire = () => {
      idle.delete(worker);
      void worker.terminate();
    };
    idle.set(worker, setTimeout(expire, idleMs).unref());
  };

  return {
    async parse(html, { maxChars, timeoutMs }) {
      const deadline = Date.now() + timeoutMs;
      if (timeoutMs <= 0) throw outOfTime();
      const worker = await acquire(timeoutMs);
      if (Date.now() >= deadline) {
        release(worker);
        throw outOfTime();
      }
      let page: ReadablePage;
      try {
        page = await answer(worker, { html, maxChars }, deadline - Date.now());
      } catch (error) {
        void worker.terminate();
        throw error;
      }
      release(worker);
      return page;
    },
    workers: () => ({ busy: alive.size - idle.size, idle: idle.size, waiting: waiting.length }),
    async close() {
      closed = true;
      await Promise.all([...alive].map((worker) => worker.terminate()));
    },
  };
}

/** The worker's answer to one page, or a PageFetchError once `timeoutMs` passes or the worker dies. */
function answer(worker: Worker, request: ParseRequest, timeoutMs: number): Promise<ReadablePage> {
  return new Promise<ReadablePage>((resolve, reject) => {
    let failure: Error | undefined;
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      outcome();
    };
    const onMessage = (reply: ParseReply) =>
      settle(() =>
        reply.ok ? resolve(reply.page) : reject(new PageFetchError('unparsable', `the page could not be parsed (${reply.error})`)),
      );
    // `error` comes before `exit`: keep its cause for the failure.
    const onError = (error: Error) => {
      failure = error;
    };
    const onExit = () => settle(() => reject(new PageFetchError('unparsable', `the page could not be parsed (${errorCode(failure)})`)));
    const timer = setTimeout(() => settle(() => reject(outOfTime())), timeoutMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(request);
  });
}

function outOfTime(): PageFetchError {
  return new PageFetchError('timeout', 'the page could not be read in time');
}

function errorCode(error: Error | undefined): string {
  if (error && 'code' in error && typeof error.code === 'string') return error.code;
  return error?.name ?? 'the parser stopped';
}

/**
 * The worker's script: in a bundle (Lambda), the worker's own bundle
 * emitted at the bundle's root beside index.mjs (PAGE_PARSE_WORKER), which
 * is one level up when this code sits in a code-split chunk (`chunks/`);
 * from source, a bootstrap that loads the worker's TypeScript through tsx.
 */
function defaultScript(): URL {
  if (import.meta.url.endsWith('.ts')) return new URL('./parse-worker-source.mjs', import.meta.url);
  const here = new URL('.', import.meta.url);
  const root = here.pathname.endsWith('/chunks/') ? new URL('..', here) : here;
  return new URL(`./${PAGE_PARSE_WORKER.bundle}`, root);
}
