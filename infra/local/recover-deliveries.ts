import { ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { EVENT_DELIVERY_QUEUE } from '../../shared/catalogue/event-publishing';
import type { JobQueue } from '../../shared/commands/queue';
import { webhookPublisherOf } from '../../shared/composition/events';
import { systemClock, type Clock } from '../../shared/platform/clock';
import { isConditionalCheckFailed } from '../../shared/platform/dynamodb-errors';
import { deliveryJob } from '../../shared/webhooks/delivery-job';
import { dynamoEventStore } from '../../shared/webhooks/event-store';
import { sweepPendingEvents } from '../../shared/webhooks/outbox-sweep';

/**
 * With `DATA_DIR`, webhook deliveries outlive a restart but the embedded SQS
 * (and the jobs that carried their next attempts) does not: at start, each
 * delivery still pending gets a job for its next attempt again. The worker
 * sends nothing before it is due, and never an attempt twice. A lease left
 * by an attempt the stopped process was making is released first (nothing
 * runs yet), so that attempt is made again at once rather than after the
 * lease's 30 s. (A scan is fine on one machine's table; in AWS the jobs
 * live in SQS and need no recovery.)
 */
export async function requeuePendingDeliveries(
  db: DynamoDBDocumentClient,
  tableName: string,
  queue: Pick<JobQueue, 'send'>,
): Promise<number> {
  let requeued = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'begins_with(pk, :delivery) AND #status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':delivery': 'DELIVERY#', ':pending': 'pending' },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const { tenant_id: tenantId, endpoint_id: endpointId, event_id: eventId, attempt_count: count } = item;
      if (typeof tenantId !== 'string' || typeof endpointId !== 'string' || typeof eventId !== 'string' || typeof count !== 'number')
        continue;
      if (typeof item.lease_until === 'number') await releaseLease(db, tableName, item, count, item.lease_until);
      await queue.send(EVENT_DELIVERY_QUEUE, deliveryJob(tenantId, { endpoint_id: endpointId, event_id: eventId, attempt: count + 1 }));
      requeued += 1;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return requeued;
}

/** Drops the lease a stopped attempt held, unless the delivery has moved on since it was read. */
async function releaseLease(
  db: DynamoDBDocumentClient,
  tableName: string,
  item: Record<string, unknown>,
  count: number,
  leaseUntil: number,
): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: 'REMOVE lease_until',
        ConditionExpression: 'attempt_count = :count AND lease_until = :lease',
        ExpressionAttributeValues: { ':count': count, ':lease': leaseUntil },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/**
 * With `DATA_DIR`, an event recorded with its change (the outbox) whose
 * hand-on to delivery died with the process (kill -9 right after a command
 * finished) is still listed as pending: at start every such event is handed
 * on at once, before the pending deliveries get their jobs again.
 */
export async function handOnPendingEvents(
  db: DynamoDBDocumentClient,
  tableName: string,
  queue: Pick<JobQueue, 'send'>,
  clock: Clock = systemClock,
): Promise<number> {
  const quiet = { warn: () => undefined };
  const report = await sweepPendingEvents(
    {
      events: dynamoEventStore(db, tableName),
      publisher: webhookPublisherOf({ db, tableName, queue, clock }),
      clock,
      logger: quiet,
    },
    { handOnAfterMs: 0, batchSize: 100_000 },
  );
  return report.handedOn;
}
