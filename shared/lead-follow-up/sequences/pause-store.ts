import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { isConditionalCheckFailed } from '../../platform/dynamodb-errors';
import type { StepOwner } from './step-store';

/**
 * A pause of one tenant's sequence of one lead (`FOLLOWUP#PAUSE#<site>#<lead>#<tenant>`):
 * when it began and, once a resume has begun, when that was (so a resume
 * retried after a fault shifts the remaining steps by the same length).
 */
export interface SequencePause {
  paused_at: string;
  resumed_at?: string;
}

/** Port: the paused state of a lead's sequence, one record per tenant and lead. */
export interface PauseStore {
  get(owner: StepOwner): Promise<SequencePause | undefined>;
  /** Starts a pause at `at`; when one is on already, that one is kept and returned (pausing twice is one pause). */
  pause(owner: StepOwner, at: string): Promise<{ pause: SequencePause; created: boolean }>;
  /** Marks the pause as resuming at `at` (once: a second call keeps the first time); undefined when the sequence is not paused. */
  beginResume(owner: StepOwner, at: string): Promise<SequencePause | undefined>;
  /** Ends the pause (after its steps are back on the schedule). */
  end(owner: StepOwner): Promise<void>;
}

const pauseSchema = z.object({ paused_at: z.string().check(z.minLength(1)), resumed_at: z.optional(z.string().check(z.minLength(1))) });

/** The key of a lead's pause record: its owner's ids (UUIDs, no '#'; the tenant last), under the follow-ups' prefix. */
export function pauseKey(owner: StepOwner): { pk: string; sk: string } {
  return { pk: `FOLLOWUP#PAUSE#${owner.siteId}#${owner.leadId}#${owner.tenantId}`, sk: 'PAUSE' };
}

function parsePause(item: Record<string, unknown>): SequencePause {
  const parsed = pauseSchema.safeParse({ paused_at: item.paused_at, resumed_at: item.resumed_at });
  if (!parsed.success) throw new Error('Stored sequence pause is malformed');
  return parsed.data.resumed_at === undefined ? { paused_at: parsed.data.paused_at } : parsed.data;
}

/** PauseStore on the single table. */
export function dynamoPauseStore(db: DynamoDBDocumentClient, tableName: string): PauseStore {
  const get = async (owner: StepOwner) => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: pauseKey(owner), ConsistentRead: true }));
    return Item ? parsePause(Item) : undefined;
  };
  return {
    get,
    async pause(owner, at) {
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...pauseKey(owner), paused_at: at },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return { pause: { paused_at: at }, created: true };
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const existing = await get(owner);
        if (!existing) throw new Error('A sequence pause exists and cannot be read');
        return { pause: existing, created: false };
      }
    },
    async beginResume(owner, at) {
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: pauseKey(owner),
            UpdateExpression: 'SET resumed_at = if_not_exists(resumed_at, :at)',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':at': at },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return Attributes ? parsePause(Attributes) : undefined;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return undefined;
        throw error;
      }
    },
    async end(owner) {
      await db.send(new DeleteCommand({ TableName: tableName, Key: pauseKey(owner) }));
    },
  };
}
