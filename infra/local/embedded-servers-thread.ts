import { parentPort, workerData } from 'node:worker_threads';
import { startEmbeddedServers, type EmbeddedServersOptions } from './embedded-servers';

/**
 * The embedded servers' worker thread (embedded-servers-thread-source.mjs
 * starts it; embedded-servers-in-thread.ts is its other end). It starts the
 * servers with the options in `workerData`, then tells its parent, in
 * order: `{ ready: endpoints }` or `{ failed: message }`; `{ arrival:
 * queue name or null }` each time messages may have become visible on a
 * queue; `{ stopped: true }` once a `'stop'` it was sent is done.
 */
export type ServersThreadMessage =
  { ready: { dynamodbEndpoint: string; sqsEndpoint: string } } | { failed: string } | { arrival: string | null } | { stopped: true };

const port = parentPort;
if (!port) throw new Error('embedded-servers-thread runs as a worker thread (embedded-servers-in-thread.ts)');
const tell = (message: ServersThreadMessage) => port.postMessage(message);

try {
  const servers = await startEmbeddedServers(workerData as EmbeddedServersOptions, {
    onArrival: (queue) => tell({ arrival: queue ?? null }),
  });
  port.once('message', (message: unknown) => {
    if (message !== 'stop') return;
    // Told even when closing a server failed: the parent's stop waits for it, then ends the thread.
    void servers
      .stop()
      .catch(() => undefined)
      .then(() => {
        tell({ stopped: true });
        port.close();
      });
  });
  tell({ ready: { dynamodbEndpoint: servers.dynamodbEndpoint, sqsEndpoint: servers.sqsEndpoint } });
} catch (error) {
  tell({ failed: error instanceof Error ? error.message : String(error) });
  port.close();
}
