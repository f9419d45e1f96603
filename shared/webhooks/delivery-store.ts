import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sendTransaction } from '../platform/dynamodb';
import { usageItems } from '../usage/dynamo-ledger';
import { usageTargetOfCommand } from '../usage/dynamo-usage-targets';
import { webhookDeliveries } from '../usage/usage';
import * as z from 'zod/mini';
import { cancellationReasons, isConditionalCheckFailed } from '../platform/dynamodb-errors';
import { epochSeconds } from '../platform/clock';
import { lazy } from '../platform/memo';
import { EVENT_RETENTION_MS } from './event-store';

/**
 * `pending` until an attempt is answered 2xx (`delivered`) or the last one of its schedule fails (`failed`); a redelivery makes it
 * `pending` again.
 */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One attempt: when, why, and what the endpoint answered (or what went wrong). Only a short excerpt of the answer's body is kept. */
export interface DeliveryAttempt {
  /** 1 for the delivery's first attempt; redeliveries continue the count. */
  number: number;
  at: string;
  trigger: 'automatic' | 'redelivery';
  /** The endpoint's HTTP status; absent when no answer came (timeout, refused address, connection error). */
  status_code?: number;
  duration_ms: number;
  error?: string;
  response_excerpt?: string;
}

/** One event's delivery to one endpoint. */
export interface StoredDelivery {
  endpoint_id: string;
  event_id: string;
  tenant_id: string;
  event_type: string;
  /** The event's table key (its payload is read from there). */
  event_key: string;
  status: DeliveryStatus;
  /** Attempts made so far. */
  attempt_count: number;
  /** `attempt_count` when the current retry schedule began (0, or the count at the last redelivery). */
  round_start: number;
  /** The latest attempts, oldest first (at most {@link KEPT_ATTEMPTS}). */
  attempts: DeliveryAttempt[];
  /** When the next attempt is due (pending only). */
  next_attempt_at?: string;
  /** Epoch ms until which one worker holds the delivery for its attempt. */
  lease_until?: number;
  /** Set by a redelivery until its attempt is recorded. */
  redelivery_requested_at?: string;
  created_at: string;
  updated_at: string;
  delivered_at?: string;
}

/** Attempts kept on a delivery; older ones are dropped (a delivery redelivered many times stays small). */
export const KEPT_ATTEMPTS = 20;

/** How an attempt ends the delivery's state. */
export type AttemptRecord = { status: 'delivered' } | { status: 'failed' } | { status: 'pending'; nextAttemptAt: number };

/**
 * Port: deliveries, one per (endpoint, event), newest first by event id.
 * Every change is a conditional update: an attempt is claimed (a lease,
 * only when its number is the next one and nobody holds it), then recorded
 * by its claimant only, so two jobs for one attempt never both send it.
 */
export interface DeliveryStore {
  /** Writes a new delivery; false when the endpoint already has one for this event. */
  create(delivery: StoredDelivery): Promise<boolean>;
  get(endpointId: string, eventId: string): Promise<StoredDelivery | undefined>;
  /** The endpoint's latest deliveries, newest first. */
  list(endpointId: string, limit: number): Promise<StoredDelivery[]>;
  /**
   * Takes the delivery for its attempt `expectedCount + 1` until `leaseUntil`; undefined when it is not pending, not at that count, or
   * held.
   */
  claim(endpointId: string, eventId: string, expectedCount: number, now: number, leaseUntil: number): Promise<StoredDelivery | undefined>;
  /**
   * Records the claimed attempt (appended to `attempts`, which the caller passes whole) and what follows; false when the claim no longer
   * holds.
   */
  recordAttempt(
    endpointId: string,
    eventId: string,
    claim: { expectedCount: number; leaseUntil: number },
    attempts: DeliveryAttempt[],
    outcome: AttemptRecord,
    now: number,
    /** The command the event is about: a `delivered` outcome counts one webhook delivery on its usage, in the same write. */
    countsFor?: string,
  ): Promise<boolean>;
  /** Makes the delivery pending again, due now, with a fresh retry schedule; undefined when its count moved or an attempt is in flight. */
  requestRedelivery(endpointId: string, eventId: string, expectedCount: number, now: number): Promise<StoredDelivery | undefined>;
}

const PARTITION = 'DELIVERY#';

const storedDelivery = lazy(() => {
  const attemptSchema = z.object({
    number: z.number(),
    at: z.string(),
    trigger: z.enum(['automatic', 'redelivery']),
    status_code: z.optional(z.number()),
    duration_ms: z.number(),
    error: z.optional(z.string()),
    response_excerpt: z.optional(z.string()),
  });
  return z.object({
    endpoint_id: z.string(),
    event_id: z.string(),
    tenant_id: z.string(),
    event_type: z.string(),
    event_key: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempt_count: z.int(),
    round_start: z.int(),
    attempts: z.array(attemptSchema),
    next_attempt_at: z.optional(z.string()),
    lease_until: z.optional(z.number()),
    redelivery_requested_at: z.optional(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
    delivered_at: z.optional(z.string()),
  });
});

function deliveryOf(item: Record<string, unknown>): StoredDelivery {
  const parsed = storedDelivery().safeParse(item);
  if (!parsed.success)
    throw new Error(
      `Malformed delivery item ${String(item.pk)}/${String(item.sk)}: ${parsed.error.issues[0]?.message ?? 'unknown problem'}`,
    );
  return parsed.data;
}

const keyOf = (endpointId: string, eventId: string) => ({ pk: `${PARTITION}${endpointId}`, sk: eventId });
const expiresAt = (now: number) => epochSeconds(now + EVENT_RETENTION_MS);
const iso = (ms: number) => new Date(ms).toISOString();

/** DeliveryStore on the single table (`DELIVERY#<endpoint id>` / `<event id>`, expiring a month after its last change). */
export function dynamoDeliveryStore(db: DynamoDBDocumentClient, tableName: string): DeliveryStore {
  /** One conditional update; the item after it, or undefined when the condition did not hold. */
  const update = async (
    endpointId: string,
    eventId: string,
    input: { set: string; remove?: string; condition: string; names?: Record<string, string>; values: Record<string, unknown> },
  ): Promise<StoredDelivery | undefined> => {
    try {
      const { Attributes } = await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keyOf(endpointId, eventId),
          UpdateExpression: `SET ${input.set}${input.remove ? ` REMOVE ${input.remove}` : ''}`,
          ConditionExpression: `attribute_exists(pk) AND ${input.condition}`,
          ...(input.names ? { ExpressionAttributeNames: input.names } : {}),
          ExpressionAttributeValues: input.values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? deliveryOf(Attributes) : undefined;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
  };

  return {
    async create(delivery) {
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...keyOf(delivery.endpoint_id, delivery.event_id),
              ...delivery,
              expires_at: expiresAt(Date.parse(delivery.created_at)),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },

    async get(endpointId, eventId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keyOf(endpointId, eventId), ConsistentRead: true }));
      return Item ? deliveryOf(Item) : undefined;
    },

    async list(endpointId, limit) {
      const { Items = [] } = await db.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': `${PARTITION}${endpointId}` },
          ScanIndexForward: false,
          Limit: limit,
          ConsistentRead: true,
        }),
      );
      return Items.map(deliveryOf);
    },

    claim(endpointId, eventId, expectedCount, now, leaseUntil) {
      return update(endpointId, eventId, {
        set: 'lease_until = :lease, updated_at = :at',
        condition: '#status = :pending AND attempt_count = :count AND (attribute_not_exists(lease_until) OR lease_until < :now)',
        names: { '#status': 'status' },
        values: { ':lease': leaseUntil, ':at': iso(now), ':pending': 'pending', ':count': expectedCount, ':now': now },
      });
    },

    async recordAttempt(endpointId, eventId, claim, attempts, outcome, now, countsFor) {
      const sets = ['attempt_count = :next', 'attempts = :attempts', '#status = :status', 'updated_at = :at', 'expires_at = :expires'];
      const removals = ['lease_until', 'redelivery_requested_at'];
      const values: Record<string, unknown> = {
        ':next': claim.expectedCount + 1,
        ':attempts': attempts.slice(-KEPT_ATTEMPTS),
        ':status': outcome.status,
        ':at': iso(now),
        ':expires': expiresAt(now),
        ':count': claim.expectedCount,
        ':lease': claim.leaseUntil,
      };
      if (outcome.status === 'pending') {
        sets.push('next_attempt_at = :due');
        values[':due'] = iso(outcome.nextAttemptAt);
      } else {
        removals.push('next_attempt_at');
      }
      if (outcome.status === 'delivered') sets.push('delivered_at = :at');
      const input = {
        set: sets.join(', '),
        remove: removals.join(', '),
        condition: 'attempt_count = :count AND lease_until = :lease',
        names: { '#status': 'status' },
        values,
      };
      const target = outcome.status === 'delivered' && countsFor ? await usageTargetOfCommand(db, tableName, countsFor) : undefined;
      if (!target) return (await update(endpointId, eventId, input)) !== undefined;
      // The record's own condition (its claim) decides once whether the delivery counts.
      try {
        await sendTransaction(db, [
          {
            Update: {
              TableName: tableName,
              Key: keyOf(endpointId, eventId),
              UpdateExpression: `SET ${input.set} REMOVE ${input.remove}`,
              ConditionExpression: `attribute_exists(pk) AND ${input.condition}`,
              ExpressionAttributeNames: input.names,
              ExpressionAttributeValues: input.values,
            },
          },
          ...usageItems(tableName, { target, usage: webhookDeliveries(1), at: now }),
        ]);
        return true;
      } catch (error) {
        if (cancellationReasons(error)?.[0] === 'ConditionalCheckFailed') return false;
        throw error;
      }
    },

    requestRedelivery(endpointId, eventId, expectedCount, now) {
      return update(endpointId, eventId, {
        set: '#status = :pending, round_start = :count, next_attempt_at = :at, redelivery_requested_at = :at, updated_at = :at, expires_at = :expires',
        condition: 'attempt_count = :count AND (attribute_not_exists(lease_until) OR lease_until < :now)',
        names: { '#status': 'status' },
        values: { ':pending': 'pending', ':count': expectedCount, ':at': iso(now), ':expires': expiresAt(now), ':now': now },
      });
    },
  };
}
