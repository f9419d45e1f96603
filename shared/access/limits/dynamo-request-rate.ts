import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../../platform/dynamodb-errors';
import { ExpiringLru } from '../../platform/expiring-lru';
import { allowedAt, decide, intervalMs, type RateDecision, type RequestRateStore } from './request-rate';

/** How long an idle bucket's item outlives its last request (DynamoDB's TTL then deletes it). */
const IDLE_SECONDS = 3_600;

/** Most tenants' buckets one instance remembers (least recently used forgotten first). */
const REMEMBERED_BUCKETS = 1_000;

/** Most conditional writes one check makes: each failed one tells what the bucket holds, so a third only follows a race. */
const MAX_WRITES = 3;

/**
 * A tenant's bucket as one item (`RATE#<tenant id>`, `sk` `BUCKET`): one
 * conditional UpdateItem per request, nothing read first. Which of the two
 * writes comes first (an idle bucket, set to now + one interval; a busy one,
 * moved one interval on) follows what this instance last saw of the tenant,
 * so a second write is needed only when the bucket changed state. A refusal
 * writes nothing.
 */
export function dynamoRequestRateStore(db: DynamoDBDocumentClient, tableName: string): RequestRateStore {
  // A bucket is remembered until its arrival time: after it, it is idle, which is what an unknown bucket is taken for.
  const lastSeen = new ExpiringLru<string, number>(REMEMBERED_BUCKETS);
  const Key = (tenantId: string) => ({ pk: `RATE#${tenantId}`, sk: 'BUCKET' });

  /**
   * The bucket's arrival time after the write, or, when its condition failed, what the bucket held (DynamoDB returns the
   * item with the refusal: no read follows).
   */
  const conditional = async (command: UpdateCommand): Promise<{ written: number } | { held: number | undefined }> => {
    try {
      const { Attributes } = await db.send(command);
      return { written: Number(Attributes?.tat) };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const held = (error as { Item?: { tat?: { N?: string } } }).Item?.tat?.N;
      return { held: held === undefined ? undefined : Number(held) };
    }
  };

  return {
    async take(tenantId, rate, now): Promise<RateDecision> {
      const interval = intervalMs(rate);
      let known = lastSeen.get(tenantId, now);
      for (let write = 0; write < MAX_WRITES; write++) {
        const decision = decide(rate, known, now);
        if (!decision.allowed) return decision;
        const idle = known === undefined || known <= now;
        const outcome = idle
          ? await conditional(
              new UpdateCommand({
                TableName: tableName,
                Key: Key(tenantId),
                ConditionExpression: 'attribute_not_exists(tat) OR tat <= :now',
                UpdateExpression: 'SET tat = :tat, expires_at = :expires',
                ExpressionAttributeValues: { ':now': now, ':tat': now + interval, ':expires': expiry(now + interval) },
                ReturnValues: 'UPDATED_NEW',
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              }),
            )
          : await conditional(
              new UpdateCommand({
                TableName: tableName,
                Key: Key(tenantId),
                // Busy, and one more interval stays within the burst.
                ConditionExpression: 'tat > :now AND tat <= :latest',
                UpdateExpression: 'SET tat = tat + :interval, expires_at = :expires',
                ExpressionAttributeValues: {
                  ':now': now,
                  ':latest': now + rate.burst * interval - interval,
                  ':interval': interval,
                  ':expires': expiry(now + rate.burst * interval),
                },
                ReturnValues: 'UPDATED_NEW',
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              }),
            );
        if ('written' in outcome) {
          lastSeen.set(tenantId, outcome.written, outcome.written);
          return allowedAt(rate, outcome.written, now);
        }
        // The bucket is not as this instance last saw it (another instance took from it): decide again on what it holds.
        known = outcome.held;
        if (known !== undefined) lastSeen.set(tenantId, known, known);
      }
      // Contended past MAX_WRITES: answer as a full bucket would (refused), never as a free pass.
      return { allowed: false, remaining: 0, resetMs: Math.ceil(interval) };
    },
  };
}

function expiry(tatMs: number): number {
  return Math.ceil(tatMs / 1000) + IDLE_SECONDS;
}
