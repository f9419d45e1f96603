import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../../platform/dynamodb-errors';
import { epochSeconds } from '../../platform/clock';
import { lazy } from '../../platform/memo';

/**
 * Port: a provider's daily request allowance, shared by every worker.
 * Requests are reserved before they are sent, so two workers can never
 * spend the same last query.
 */
export interface SearchQuota {
  /** Takes `requests` from today's allowance; false (nothing taken) when fewer remain. */
  reserve(requests: number): Promise<boolean>;
  /** Marks today's allowance as used up (the provider said so): every reservation fails until the reset. */
  exhaust(): Promise<void>;
  /**
   * Gives back requests this instance reserved but did not send (a search
   * that needed fewer pages), on the day they were reserved; nothing once
   * that day is exhausted.
   */
  release?(requests: number): Promise<void>;
}

/** The time zone Google's daily quota resets in (midnight US Pacific, PST or PDT). */
const QUOTA_TIME_ZONE = 'America/Los_Angeles';

/** How long a day's counter is kept after it was last written: past its own day in every time zone, then TTL removes it. */
const COUNTER_LIFETIME_SECONDS = 2 * 24 * 60 * 60;

/** Built on first use: the first Intl object a process builds starts ICU, about as much work as the rest of a cold start. */
const pacificFormat = lazy(
  () => new Intl.DateTimeFormat('en-US', { timeZone: QUOTA_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }),
);

/** The calendar day (YYYY-MM-DD) in US Pacific time at `epochMs`, daylight saving time included. */
export function pacificDay(epochMs: number): string {
  const parts = Object.fromEntries(
    pacificFormat()
      .formatToParts(new Date(epochMs))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The calendar day before a YYYY-MM-DD day. */
function previousDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** The key of Google's counter for one Pacific day. */
export function googleQuotaKey(day: string): { pk: string; sk: string } {
  return { pk: `QUOTA#google#${day}`, sk: 'QUOTA' };
}

/**
 * Google's daily query counter in the table: one item per Pacific day
 * (`QUOTA#google#<day>`), `count` raised atomically by each reservation on
 * the condition that it stays within `dailyLimit`, so concurrent workers
 * never overspend. A new day is a new item, which is the reset at Pacific
 * midnight. `exhaust` sets the count to the limit and marks the day
 * exhausted, so released reservations cannot reopen it.
 */
export function dynamoGoogleQuota(
  db: DynamoDBDocumentClient,
  tableName: string,
  dailyLimit: number,
  now: () => number = Date.now,
): SearchQuota {
  if (!Number.isInteger(dailyLimit) || dailyLimit < 0)
    throw new Error(`Daily quota must be a whole number of requests (got ${dailyLimit})`);
  const keyNow = () => {
    const at = now();
    const day = pacificDay(at);
    return { day, Key: googleQuotaKey(day), expiresAt: epochSeconds(at) + COUNTER_LIFETIME_SECONDS };
  };
  const names = { '#count': 'count', '#exhausted': 'exhausted', '#expires': 'expires_at' };
  /** Requests this instance reserved and has not given back, per Pacific day: a release only returns what was taken on its day. */
  const outstanding = new Map<string, number>();

  return {
    async reserve(requests) {
      if (!Number.isInteger(requests) || requests < 0) throw new Error(`Cannot reserve ${requests} requests`);
      if (requests === 0) return true;
      if (requests > dailyLimit) return false;
      const { day, Key, expiresAt } = keyNow();
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key,
            UpdateExpression: 'ADD #count :n SET #expires = :expires',
            ConditionExpression: '(attribute_not_exists(#count) OR #count <= :limitMinusN) AND attribute_not_exists(#exhausted)',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ':n': requests, ':limitMinusN': dailyLimit - requests, ':expires': expiresAt },
          }),
        );
        outstanding.set(day, (outstanding.get(day) ?? 0) + requests);
        for (const held of outstanding.keys()) if (held < day && held !== previousDay(day)) outstanding.delete(held);
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },

    async exhaust() {
      const { Key, expiresAt } = keyNow();
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key,
            UpdateExpression: 'SET #count = :limit, #exhausted = :true, #expires = :expires',
            ConditionExpression: 'attribute_not_exists(#exhausted)',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ':limit': dailyLimit, ':true': true, ':expires': expiresAt },
          }),
        );
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },

    async release(requests) {
      if (!Number.isInteger(requests) || requests <= 0) return;
      const day = [...outstanding.keys()]
        .sort()
        .reverse()
        .find((held) => (outstanding.get(held) ?? 0) >= requests);
      if (day === undefined) return;
      outstanding.set(day, (outstanding.get(day) ?? 0) - requests);
      const Key = googleQuotaKey(day);
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key,
            UpdateExpression: 'ADD #count :minusN',
            ConditionExpression: '#count >= :n AND attribute_not_exists(#exhausted)',
            ExpressionAttributeNames: { '#count': names['#count'], '#exhausted': names['#exhausted'] },
            ExpressionAttributeValues: { ':n': requests, ':minusN': -requests },
          }),
        );
      } catch (error) {
        // Exhausted meanwhile: the day stays closed.
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },
  };
}
