import type { IncomingMessage, ServerResponse } from 'node:http';
import { tapBody } from './tap-body';

/**
 * Subscribes `listener` to news that messages may have become visible on the
 * queue at `queueUrl`; returns the unsubscribe.
 */
export type QueueActivity = (queueUrl: string, listener: () => void) => () => void;

/** SQS actions after which a message may be visible that was not before. */
const ARRIVALS = new Set([
  'SendMessage',
  'SendMessageBatch',
  'ChangeMessageVisibility',
  'ChangeMessageVisibilityBatch',
  'StartMessageMoveTask',
]);

/** A queue's name, the last part of its URL: clients may reach one queue by different hosts. */
const queueNameOf = (queueUrl: string): string => queueUrl.slice(queueUrl.lastIndexOf('/') + 1);

/**
 * The queue an SQS request (JSON protocol) acts on, or undefined when it
 * names none (a message move task names its source by ARN: news for all).
 */
function requestQueueName(body: string): string | undefined {
  try {
    const { QueueUrl } = JSON.parse(body) as { QueueUrl?: unknown };
    return typeof QueueUrl === 'string' ? queueNameOf(QueueUrl) : undefined;
  } catch {
    return undefined;
  }
}

/** Listeners of arrival news, queue by queue, and the wake that tells them. */
export interface ArrivalListeners {
  activity: QueueActivity;
  /** Wakes the listeners of queue `queue` (a queue's name), or every listener when `queue` is undefined. */
  wake(queue: string | undefined): void;
}

/** Listeners of arrival news by queue name: a queue is known by its name, whichever host a client reached it by. */
export function arrivalListeners(): ArrivalListeners {
  const listeners = new Map<string, Set<() => void>>();
  return {
    activity(queueUrl, listener) {
      const name = queueNameOf(queueUrl);
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    wake(queue) {
      const woken = queue === undefined ? [...listeners.values()].flatMap((set) => [...set]) : [...(listeners.get(queue) ?? [])];
      for (const listener of woken) listener();
    },
  };
}

/**
 * News of arrivals, queue by queue: an SQS server's answered sends and
 * visibility changes wake only the listeners of the queue they name (a
 * request whose queue cannot be read wakes all). Waking every idle poller
 * of every queue at each send made each lead follow-up cost about nine
 * empty receives in a drain.
 *
 * Returns what to call with each request to the server, before the server
 * reads its body; `wake` is called with the queue's name once the answer to
 * an arrival is sent.
 */
export function watchArrivals(
  wake: ArrivalListeners['wake'],
): (operation: string, request: IncomingMessage, response: ServerResponse) => void {
  return (operation, request, response) => {
    if (!ARRIVALS.has(operation)) return;
    let queue: string | undefined;
    tapBody(request, (body) => (queue = operation === 'StartMessageMoveTask' ? undefined : requestQueueName(body)));
    response.once('finish', () => wake(queue));
  };
}
