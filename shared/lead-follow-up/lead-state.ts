import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import '../platform/zod-messages';
import { TABLE } from '../catalogue/table';
import { historyPartition, type LeadHistoryOwner } from './history';
import { FOLLOW_UP_TYPES, type FollowUpType } from './vocabulary';

/** The stages lead events move a lead to, in the lead's own `lead_stage` naming. */
export const EVENT_STAGES = { replied: 'engaged', meeting_booked: 'meeting_scheduled' } as const;

/** A channel the lead asked to hear no more on (`all`: an unsubscribe that named none). */
export interface Unsubscribe {
  channel: FollowUpType | 'all';
  reason: 'unsubscribed';
  /** When the lead unsubscribed (UTC ISO 8601). */
  at: string;
}

/**
 * What a tenant's lead events made of a lead, kept beside its history and
 * for as long as the lead is (no expiry: an unsubscribe stands): the stage
 * they moved it to, and the channels it unsubscribed from. Another tenant's
 * never reach it.
 */
export interface LeadState {
  lead_stage?: string;
  unsubscribed: Unsubscribe[];
}

/** Port: each tenant's state of a lead. */
export interface LeadStates {
  get(owner: LeadHistoryOwner): Promise<LeadState>;
  /** Moves the stage, if the event at `at` is newer than the one that set it. */
  moveStage(owner: LeadHistoryOwner, stage: string, at: string): Promise<void>;
  /** Records an unsubscribe from `channel` (the first time is kept). */
  unsubscribe(owner: LeadHistoryOwner, channel: FollowUpType | 'all', at: string): Promise<void>;
}

/**
 * The state's sort key in the lead's history partition: `~STATE#<tenant id>`,
 * outside every tenant's `<tenant id>#` prefix of entries, so no history
 * window ever reads it.
 */
function stateSortKey(tenantId: string): string {
  return `~STATE#${tenantId}`;
}

const channelKey = (channel: FollowUpType | 'all') => `unsubscribed_${channel}`;
const CHANNELS: readonly (FollowUpType | 'all')[] = [...FOLLOW_UP_TYPES, 'all'];

/** A stored stage or instant: not empty, at most 64 characters (anything else is read as absent). */
const storedText = z.string().check(z.minLength(1), z.maxLength(64));

/**
 * A stored text attribute, or undefined when it is absent or not one. Most
 * leads have no state at all: an absent attribute is not parsed, since a
 * failed parse builds an error the accept path would throw away five
 * times a request.
 */
function storedTextOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const parsed = storedText.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** LeadStates on the single table, under the lead's history partition (`LEADHISTORY#`). */
export function dynamoLeadStates(db: DynamoDBDocumentClient, tableName: string): LeadStates {
  const key = (owner: LeadHistoryOwner) => ({
    [TABLE.partitionKey]: historyPartition(owner.siteId, owner.leadId),
    [TABLE.sortKey]: stateSortKey(owner.tenantId),
  });
  const update = async (owner: LeadHistoryOwner, expression: string, condition: string | undefined, values: Record<string, unknown>) => {
    try {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key(owner),
          UpdateExpression: expression,
          ...(condition ? { ConditionExpression: condition } : {}),
          ExpressionAttributeValues: values,
        }),
      );
    } catch (error) {
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    }
  };
  return {
    async get(owner) {
      // A Query of the one key, so functions that read the lead's history window need no other grant.
      const { Items = [] } = await db.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: '#pk = :pk AND #sk = :sk',
          ExpressionAttributeNames: { '#pk': TABLE.partitionKey, '#sk': TABLE.sortKey },
          ExpressionAttributeValues: { ':pk': historyPartition(owner.siteId, owner.leadId), ':sk': stateSortKey(owner.tenantId) },
        }),
      );
      const item = Items[0] ?? {};
      const stage = storedTextOf(item.lead_stage);
      const unsubscribed: Unsubscribe[] = [];
      for (const channel of CHANNELS) {
        const at = storedTextOf(item[channelKey(channel)]);
        if (at !== undefined) unsubscribed.push({ channel, reason: 'unsubscribed', at });
      }
      return { ...(stage !== undefined ? { lead_stage: stage } : {}), unsubscribed };
    },
    async moveStage(owner, stage, at) {
      await update(owner, 'SET lead_stage = :stage, lead_stage_at = :at', 'attribute_not_exists(lead_stage_at) OR lead_stage_at <= :at', {
        ':stage': stage,
        ':at': at,
      });
    },
    async unsubscribe(owner, channel, at) {
      await update(owner, `SET ${channelKey(channel)} = if_not_exists(${channelKey(channel)}, :at)`, undefined, { ':at': at });
    },
  };
}

/** The unsubscribes that close `channel` (its own, or one from every channel). */
export function unsubscribesOf(state: LeadState, channel: string): Unsubscribe[] {
  return state.unsubscribed.filter((item) => item.channel === channel || item.channel === 'all');
}
