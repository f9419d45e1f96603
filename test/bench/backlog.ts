import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import type { LocalRuntime } from '../../infra/local/runtime';
import type { createSqsClient } from '../../shared/platform/sqs';

/**
 * A backlog of lead follow-ups for the bench parts that work one off
 * through the local runtime (`drain`, `cost`): queued through the HTTP API,
 * then waited for until every queue is empty.
 */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

/** The bench's own calls to the embedded services carry this header, so their counters leave them out. */
export const BENCH_HEADER = 'x-switchboard-bench';

/** Marks a call of the bench's own (an SDK middleware at the `build` step). */
export function tagged<Args extends { request: unknown }>(args: Args): Args {
  (args.request as { headers: Record<string, string> }).headers[BENCH_HEADER] = '1';
  return args;
}

/** What a lead follow-up of the backlog asks for. */
export type Output = 'channel_messages' | 'follow_up_sequence';

/** POSTs the backlog, a few at a time, and returns the command ids. */
export async function enqueueLeadFollowUps(runtime: LocalRuntime, outputs: readonly Output[]): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < outputs.length) {
      const output = outputs[next++]!;
      const response = await fetch(`${runtime.url}/api/agents/sales/leadFollowUp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': runtime.apiKey },
        body: JSON.stringify({
          siteId: DEMO_SITE,
          leadId: DEMO_LEAD,
          followUpType: 'email',
          productInterest: ['booking calendar'],
          output,
        }),
      });
      const body = (await response.json()) as { data?: { command_id?: string } };
      if (response.status !== 202 || !body.data?.command_id)
        throw new Error(`Enqueueing answered ${response.status}: ${JSON.stringify(body)}`);
      ids.push(body.data.command_id);
    }
  };
  await Promise.all(Array.from({ length: 16 }, lane));
  return ids;
}

/** Maps a few at a time (a burst of thousands of reads would wait for sockets past the client's connection timeout). */
export async function mapInLanes<T, R>(items: readonly T[], map: (item: T) => Promise<R>, lanes = 16): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await map(items[index]!);
      }
    }),
  );
  return results;
}

/** Every job is deleted from its queue once its command moved on, so empty queues (visible and in flight) mean all is done. */
export async function untilQueuesEmpty(
  runtime: LocalRuntime,
  sqs: ReturnType<typeof createSqsClient>,
  started: number,
  deadlineMs: number,
): Promise<void> {
  const attributes = ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] as const;
  for (;;) {
    if (performance.now() - started > deadlineMs) throw new Error('The backlog was not drained in time');
    let left = 0;
    for (const queue of Object.values(runtime.queues)) {
      const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queue.url, AttributeNames: [...attributes] }));
      for (const name of attributes) left += Number(Attributes?.[name] ?? 0);
    }
    if (left === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
