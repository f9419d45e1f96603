import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import '../platform/zod-messages';
import { TABLE } from '../catalogue/table';
import { batchDeleteAll } from '../platform/dynamodb';
import { isConditionalCheckFailed } from '../platform/dynamodb-errors';
import { epochSeconds } from '../platform/clock';
import { HISTORY_WINDOW, MAX_HISTORY_SUMMARY_LENGTH, withinWindow } from './writing-limits';

/** Whose history: a tenant's, of one lead of one site. */
export interface LeadHistoryOwner {
  tenantId: string;
  siteId: string;
  leadId: string;
}

/** One reported event, as a follow-up reads it. */
export interface LeadHistoryEntry {
  event_id: string;
  /** When it happened (UTC ISO 8601). */
  date: string;
  type: string;
  channel: string | null;
  summary: string;
}

/**
 * Port: what a tenant reported about a lead (`POST /api/leads/{leadId}/events`),
 * one item per event, apart from the site's own data: it reaches that
 * tenant's follow-ups only, never another tenant's that covers the same site.
 */
export interface LeadHistory {
  /** Keeps an entry once per event id (a second write of the same event changes nothing); it expires at `expiresAt` (epoch seconds). */
  record(owner: LeadHistoryOwner, entry: LeadHistoryEntry, expiresAt: number): Promise<'recorded' | 'already_recorded'>;
  /** The newest entries within {@link HISTORY_WINDOW}, newest first; expired ones (TTL not yet run) are left out. */
  window(owner: LeadHistoryOwner, now: number): Promise<LeadHistoryEntry[]>;
  /** Erases the owner's whole history of the lead; answers how many entries went. */
  erase(owner: LeadHistoryOwner): Promise<number>;
}

/**
 * Where a lead's history lives: `LEADHISTORY#<site id>#<lead id>`, a key
 * prefix of its own rather than the site's collections under `SITE#`, so the
 * route that records events is granted writes to histories only, never to
 * sites or leads, and no query of a site's collections can meet an entry.
 */
export function historyPartition(siteId: string, leadId: string): string {
  return `LEADHISTORY#${siteId}#${leadId}`;
}

/**
 * An entry's sort key: `<tenant id>#<occurred at>#<event id>`. Tenant ids
 * hold no `#`, so one tenant's prefix never matches another's; the time is
 * UTC ISO 8601 with a four-digit year (events before 1970 or ahead of now
 * are refused), so the keys sort in time order.
 */
function entrySortKey(tenantId: string, date: string, eventId: string): string {
  return `${tenantId}#${date}#${eventId}`;
}

const entrySchema = z.object({
  event_id: z.string(),
  date: z.string(),
  type: z.string(),
  channel: z.nullable(z.string()),
  summary: z.string(),
});

/** Entries erased per Query page. */
const ERASE_PAGE = 100;

/** LeadHistory on the single table, expiring through its TTL attribute. */
export function dynamoLeadHistory(db: DynamoDBDocumentClient, tableName: string): LeadHistory {
  const ownerQuery = (owner: LeadHistoryOwner) => ({
    TableName: tableName,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :tenant)',
    ExpressionAttributeValues: { ':pk': historyPartition(owner.siteId, owner.leadId), ':tenant': `${owner.tenantId}#` },
  });

  return {
    async record(owner, entry, expiresAt) {
      const summary = entry.summary.slice(0, MAX_HISTORY_SUMMARY_LENGTH);
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              [TABLE.partitionKey]: historyPartition(owner.siteId, owner.leadId),
              [TABLE.sortKey]: entrySortKey(owner.tenantId, entry.date, entry.event_id),
              tenant_id: owner.tenantId,
              site_id: owner.siteId,
              lead_id: owner.leadId,
              ...entry,
              summary,
              [TABLE.ttlAttribute]: expiresAt,
            },
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': TABLE.partitionKey },
          }),
        );
        return 'recorded';
      } catch (error) {
        if (isConditionalCheckFailed(error)) return 'already_recorded';
        throw error;
      }
    },

    async window(owner, now) {
      const query = ownerQuery(owner);
      const { Items = [] } = await db.send(
        new QueryCommand({
          ...query,
          ExpressionAttributeNames: {
            '#pk': TABLE.partitionKey,
            '#sk': TABLE.sortKey,
            '#type': 'type',
            '#date': 'date',
            '#expires': TABLE.ttlAttribute,
          },
          ExpressionAttributeValues: { ...query.ExpressionAttributeValues, ':now': epochSeconds(now) },
          FilterExpression: 'attribute_not_exists(#expires) OR #expires > :now',
          ProjectionExpression: 'event_id, #date, #type, channel, summary',
          ScanIndexForward: false,
          Limit: HISTORY_WINDOW.maxEntries,
        }),
      );
      return withinWindow(
        Items.map((item) => {
          const parsed = entrySchema.safeParse(item);
          if (!parsed.success)
            throw new Error(`A stored history entry of lead ${owner.leadId} is malformed: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
          return parsed.data;
        }),
      );
    },

    async erase(owner) {
      let erased = 0;
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            ...ownerQuery(owner),
            ExpressionAttributeNames: { '#pk': TABLE.partitionKey, '#sk': TABLE.sortKey },
            ProjectionExpression: '#pk, #sk',
            Limit: ERASE_PAGE,
            ExclusiveStartKey: startKey,
          }),
        );
        const keys = page.Items ?? [];
        await batchDeleteAll(db, tableName, keys);
        erased += keys.length;
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return erased;
    },
  };
}
