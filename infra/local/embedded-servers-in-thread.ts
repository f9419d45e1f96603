import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EmbeddedServers, EmbeddedServersOptions } from './embedded-servers';
import type { ServersThreadMessage } from './embedded-servers-thread';
import { arrivalListeners } from './queue-news';

/**
 * Starts the embedded servers in a worker thread of their own, so their
 * work (parsing and answering every DynamoDB and SQS call, LevelDB) runs
 * beside the functions' event loop instead of on it, as the real services
 * run on other machines. The same servers as {@link startEmbeddedServers}
 * (embedded-servers.ts); what cannot cross a thread, a request observer,
 * is only offered there. News of arrivals comes over as messages.
 *
 * The thread ending on its own while the servers should be up is thrown
 * as an uncaught error: nothing local works without them.
 */
export async function startEmbeddedServersInThread(options: EmbeddedServersOptions): Promise<EmbeddedServers> {
  const worker = new Worker(threadScript(), { workerData: options, execArgv: [] });
  const listeners = arrivalListeners();
  /** Up: between the thread's `ready` and a stop, when its ending is a failure nobody asked for. */
  let up = false;
  let exited = false;
  let stopping: Promise<void> | undefined;
  let stopped: (() => void) | undefined;
  const endpoints = await new Promise<{ dynamodbEndpoint: string; sqsEndpoint: string }>((resolve, reject) => {
    worker.on('message', (message: ServersThreadMessage) => {
      if ('arrival' in message) listeners.wake(message.arrival ?? undefined);
      else if ('ready' in message) {
        up = true;
        resolve(message.ready);
      } else if ('failed' in message) reject(new Error(message.failed));
      else if ('stopped' in message) stopped?.();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      exited = true;
      stopped?.();
      const error = new Error(`The embedded servers' thread exited (code ${code})`);
      reject(error);
      if (up && !stopping)
        queueMicrotask(() => {
          throw error;
        });
    });
  });
  return {
    ...endpoints,
    activity: listeners.activity,
    stop() {
      // Once, however often it is called; at once when the thread has already ended.
      stopping ??= (async () => {
        if (exited) return;
        const done = new Promise<void>((resolve) => (stopped = resolve));
        worker.postMessage('stop');
        await done;
        await worker.terminate();
      })();
      return stopping;
    },
  };
}

/** The thread's built entry, in `npm start`'s build (infra/local/project-build.mjs `builtEntries`); not defined from source. */
declare const SWITCHBOARD_SERVERS_THREAD: string | undefined;

/**
 * The thread's script: in `npm start`'s build, the thread's entry built beside
 * the runtime (about 0.2 s and 0.3 s of CPU less per start than compiling it);
 * from source (tests, tsx), a bootstrap that loads its TypeScript through tsx.
 */
function threadScript(): URL {
  return typeof SWITCHBOARD_SERVERS_THREAD === 'string'
    ? pathToFileURL(SWITCHBOARD_SERVERS_THREAD)
    : new URL('./embedded-servers-thread-source.mjs', import.meta.url);
}
