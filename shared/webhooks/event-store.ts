import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { TABLE } from '../catalogue/table';
import { queryShardsBefore, type TransactionItem } from '../platform/dynamodb';
import { isConditionalCheckFailed } from '../platform/dynamodb-errors';
import { epochSeconds } from '../platform/clock';
import { canonicalJson, sha256Hex } from '../platform/hashing';
import { lazy } from '../platform/memo';

/** How long an event (and its deliveries) is kept: a month, as Stripe keeps events. Longer than every retry schedule. */
export const EVENT_RETENTION_MS = 30 * 86_400_000;

/** An event as stored: the payload every delivery of it sends, byte for byte the same. */
export interface StoredEvent {
  /** Its table key (`EVENT#<sha256>`), which its deliveries name. */
  key: string;
  id: string;
  tenant_id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
  idempotency_key: string;
  /** Set once a delivery was queued for every endpoint subscribed when it was published. */
  fanned_out_at?: string;
}

/** An event as the tenant's list shows it: enough to find it and its payload. */
export interface ListedEvent {
  id: string;
  type: string;
  created_at: string;
  /** The event's own table key. */
  event_key: string;
}

/** A page of the tenant's events, newest first; `next` names the last one when more may follow. */
export interface EventPage {
  events: ListedEvent[];
  next?: string;
}

/** What a publisher asks to record. */
export interface NewEvent {
  tenantId: string;
  type: string;
  data: Record<string, unknown>;
  idempotencyKey: string;
}

/**
 * Port: events, one per idempotency key. Recording is a single UpdateItem
 * whose every field is `if_not_exists`: the first publisher's event wins,
 * and every later one (a retried job, a repeated callback) reads it back,
 * id included, without a second write path or a read first. The same
 * update can join the transaction of the change the event announces
 * (`recordItem`: the outbox). Until its deliveries are queued an event is
 * listed as pending (a sparse index entry), so a sweep finds any that a
 * crash left behind.
 */
export interface EventStore {
  /** Records the event unless its key has one; returns the stored event either way. */
  record(event: NewEvent, candidateId: string, now: number): Promise<StoredEvent>;
  /** The same record as a transaction item, to commit with the change it announces; returns the event's key too. */
  recordItem(event: NewEvent, candidateId: string, now: number): { key: string; item: TransactionItem };
  /** Notes that every delivery of the event was queued (and takes it off the pending list). */
  markFannedOut(key: string, now: number): Promise<void>;
  get(key: string): Promise<StoredEvent | undefined>;
  /**
   * Lists the event in its tenant's events (`EVENT#TENANT#<tenant>`) and in those of its type (`EVENT#TENANT#<tenant>#<type>`), sorted by
   * id (time-ordered), expiring with it. Idempotent.
   */
  index(event: StoredEvent): Promise<void>;
  /** The tenant's events (of `type` only, when given), newest first, from after the event id `after`; none older than `since` (ISO). */
  list(tenantId: string, query: { type?: string; limit: number; after?: string; since: string }): Promise<EventPage>;
  /** The tenant's listed event with this id; undefined for another tenant's, an unknown or an expired one. */
  find(tenantId: string, eventId: string, since: string): Promise<ListedEvent | undefined>;
  /** Keys of events recorded before `recordedBefore` (ISO) whose deliveries were not all queued, oldest first, up to `limit`. */
  listPending(recordedBefore: string, limit: number): Promise<string[]>;
}

/** The table key of an event: `EVENT#` and the SHA-256 of `[tenant, idempotency key]`, so no key can name another tenant's event. */
export function eventKey(tenantId: string, idempotencyKey: string): string {
  return `EVENT#${sha256Hex(canonicalJson([tenantId, idempotencyKey]))}`;
}

const SORT_KEY = 'EVENT';

/** Events not yet fanned out are listed in gsi1, spread over a few partitions (`EVENT#PENDING#<shard>`, by recording time). */
const PENDING_SHARDS = 8;
const PENDING_INDEX = TABLE.indexes[0];

function pendingShardOf(key: string): number {
  return parseInt(key.slice(-1), 16) % PENDING_SHARDS || 0;
}

const storedEvent = lazy(() =>
  z.object({
    pk: z.string(),
    id: z.string(),
    tenant_id: z.string(),
    type: z.string(),
    created_at: z.string(),
    data: z.record(z.string(), z.unknown()),
    idempotency_key: z.string(),
    fanned_out_at: z.optional(z.string()),
  }),
);

function eventOf(item: Record<string, unknown>): StoredEvent {
  const parsed = storedEvent().safeParse(item);
  if (!parsed.success) throw new Error(`Malformed event item ${String(item.pk)}: ${parsed.error.issues[0]?.message ?? 'unknown problem'}`);
  const { pk, ...event } = parsed.data;
  return { key: pk, ...event };
}

/** The UpdateItem that records an event once (every field `if_not_exists`) and lists it as pending. */
function recordUpdate(tableName: string, event: NewEvent, candidateId: string, now: number) {
  const key = eventKey(event.tenantId, event.idempotencyKey);
  const at = new Date(now).toISOString();
  return {
    TableName: tableName,
    Key: { pk: key, sk: SORT_KEY },
    UpdateExpression:
      'SET #id = if_not_exists(#id, :id), tenant_id = if_not_exists(tenant_id, :tenant), #type = if_not_exists(#type, :type), ' +
      'created_at = if_not_exists(created_at, :at), #data = if_not_exists(#data, :data), ' +
      'idempotency_key = if_not_exists(idempotency_key, :key), expires_at = if_not_exists(expires_at, :expires), ' +
      '#ipk = if_not_exists(#ipk, :ipk), #isk = if_not_exists(#isk, :isk)',
    ExpressionAttributeNames: {
      '#id': 'id',
      '#type': 'type',
      '#data': 'data',
      '#ipk': PENDING_INDEX.partitionKey,
      '#isk': PENDING_INDEX.sortKey,
    },
    ExpressionAttributeValues: {
      ':id': candidateId,
      ':tenant': event.tenantId,
      ':type': event.type,
      ':at': at,
      ':data': event.data,
      ':key': event.idempotencyKey,
      ':expires': epochSeconds(now + EVENT_RETENTION_MS),
      ':ipk': `EVENT#PENDING#${pendingShardOf(key)}`,
      ':isk': `${at}#${key}`,
    },
  };
}

/** The partition listing a tenant's events (of one type, when given). */
function listPartition(tenantId: string, type?: string): string {
  return type === undefined ? `EVENT#TENANT#${tenantId}` : `EVENT#TENANT#${tenantId}#${type}`;
}

const listedEvent = lazy(() => z.object({ id: z.string(), type: z.string(), created_at: z.string(), event_key: z.string() }));

function listedOf(item: Record<string, unknown>): ListedEvent {
  const parsed = listedEvent().safeParse(item);
  if (!parsed.success) throw new Error(`Malformed listed event ${String(item.pk)}/${String(item.sk)}`);
  return parsed.data;
}

/** EventStore on the single table (`EVENT#<sha256>` / `EVENT`, expiring after {@link EVENT_RETENTION_MS}). */
export function dynamoEventStore(db: DynamoDBDocumentClient, tableName: string): EventStore {
  return {
    async record(event, candidateId, now) {
      const { Attributes } = await db.send(
        new UpdateCommand({ ...recordUpdate(tableName, event, candidateId, now), ReturnValues: 'ALL_NEW' }),
      );
      if (!Attributes) throw new Error('DynamoDB returned no attributes for the event');
      return eventOf(Attributes);
    },

    recordItem(event, candidateId, now) {
      return { key: eventKey(event.tenantId, event.idempotencyKey), item: { Update: recordUpdate(tableName, event, candidateId, now) } };
    },

    async listPending(recordedBefore, limit) {
      const family = { tableName, index: PENDING_INDEX, partitionPrefix: 'EVENT#PENDING#', shards: PENDING_SHARDS };
      return (await queryShardsBefore(db, family, recordedBefore, limit)).map((item) => String(item.pk));
    },

    async markFannedOut(key, now) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: key, sk: SORT_KEY },
            UpdateExpression: 'SET fanned_out_at = if_not_exists(fanned_out_at, :at) REMOVE #ipk, #isk',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#ipk': PENDING_INDEX.partitionKey, '#isk': PENDING_INDEX.sortKey },
            ExpressionAttributeValues: { ':at': new Date(now).toISOString() },
          }),
        );
      } catch (error) {
        // Gone (its retention ran out): nothing left to mark.
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },

    async get(key) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { pk: key, sk: SORT_KEY }, ConsistentRead: true }));
      return Item ? eventOf(Item) : undefined;
    },

    async index(event) {
      // Expires with the event: the month after its creation.
      const expires = epochSeconds(Date.parse(event.created_at) + EVENT_RETENTION_MS);
      for (const pk of [listPartition(event.tenant_id), listPartition(event.tenant_id, event.type)]) {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk, sk: event.id },
            UpdateExpression: 'SET #id = :id, #type = :type, created_at = :at, event_key = :key, expires_at = :expires',
            ExpressionAttributeNames: { '#id': 'id', '#type': 'type' },
            ExpressionAttributeValues: {
              ':id': event.id,
              ':type': event.type,
              ':at': event.created_at,
              ':key': event.key,
              ':expires': expires,
            },
          }),
        );
      }
    },

    async list(tenantId, { type, limit, after, since }) {
      const { Items = [], LastEvaluatedKey } = await db.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: after === undefined ? 'pk = :pk' : 'pk = :pk AND sk < :after',
          ExpressionAttributeValues: { ':pk': listPartition(tenantId, type), ...(after === undefined ? {} : { ':after': after }) },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      const listed = Items.map(listedOf);
      // Past its month an event may linger until the table's TTL removes it: the list ends where retention does.
      const kept = listed.filter((event) => event.created_at >= since);
      const last = listed.at(-1);
      return LastEvaluatedKey && last && kept.length === listed.length ? { events: kept, next: last.id } : { events: kept };
    },

    async find(tenantId, eventId, since) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { pk: listPartition(tenantId), sk: eventId } }));
      if (!Item) return undefined;
      const listed = listedOf(Item);
      return listed.created_at >= since ? listed : undefined;
    },
  };
}
