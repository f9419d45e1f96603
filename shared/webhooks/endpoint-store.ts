import { endpointsChanged } from './endpoint-cache';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { isConditionalCheckFailed } from '../platform/dynamodb-errors';
import { lazy } from '../platform/memo';

/** Most endpoints one tenant may register (Stripe allows 16 per account; a handful is what a team uses). */
export const MAX_ENDPOINTS_PER_TENANT = 10;

/**
 * A tenant's webhook endpoint, as stored. The secrets never leave the service but in a delivery's signature and the one answer that creates
 * them.
 */
export interface WebhookEndpoint {
  id: string;
  tenant_id: string;
  url: string;
  /** Event types it hears of; `["*"]`: every type. */
  events: string[];
  description?: string;
  /** The signing secret (`whsec_…`). */
  secret: string;
  /** The secret before the last rotation, still signing (beside the new one) until `previous_secret_expires_at`. */
  previous_secret?: string;
  previous_secret_expires_at?: string;
  /** Set while it hears of nothing: by the tenant (`requested`) or by the service after failing too long (`failing`). */
  disabled?: boolean;
  disabled_reason?: DisabledReason;
  disabled_at?: string;
  /** When its first failed attempt since its last success was made; absent while its deliveries succeed. */
  failing_since?: string;
  /** When it was last re-enabled: deliveries of events from before are not sent (re-enabling resumes with new events). */
  enabled_at?: string;
  created_at: string;
  updated_at: string;
}

/** Why an endpoint is disabled: the tenant asked (`requested`), or its deliveries kept failing (`failing`, WEBHOOK_DISABLE_AFTER). */
export type DisabledReason = 'requested' | 'failing';

/** A change a tenant asks for (PATCH): each field given replaces the stored one; `description: null` removes it. */
export interface EndpointChange {
  url?: string;
  events?: string[];
  description?: string | null;
  disabled?: boolean;
}

/** The secrets a delivery is signed with now: the current one, then a rotated one still in its grace period. */
export function signingSecretsOf(
  endpoint: Pick<WebhookEndpoint, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>,
  now: number,
): string[] {
  const previousValid =
    endpoint.previous_secret && endpoint.previous_secret_expires_at && Date.parse(endpoint.previous_secret_expires_at) > now;
  return previousValid ? [endpoint.secret, endpoint.previous_secret!] : [endpoint.secret];
}

/**
 * Port: a tenant's endpoints. They live in one partition, one item per
 * slot (`SLOT#00` … `SLOT#09`); creating one is a conditional put into a
 * free slot, so no race can exceed the bound.
 */
export interface EndpointStore {
  /** The tenant's endpoints, oldest first. */
  list(tenantId: string): Promise<WebhookEndpoint[]>;
  /** One of the tenant's endpoints; undefined for another tenant's or a missing one. */
  get(tenantId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** Stores a new endpoint in a free slot; false when the tenant has {@link MAX_ENDPOINTS_PER_TENANT} already. */
  create(endpoint: WebhookEndpoint): Promise<boolean>;
  /** Deletes the tenant's endpoint; false when it has none with this id. */
  remove(tenantId: string, id: string): Promise<boolean>;
  /**
   * Replaces the signing secret of the tenant's endpoint, keeping the one it
   * had (`expected`, as read) valid until `previousExpiresAt` (epoch ms; now or
   * earlier ends it at once). Returns the endpoint as stored after, or
   * undefined when it is gone or its secret changed meanwhile.
   */
  rotateSecret(
    tenantId: string,
    id: string,
    expected: string,
    secret: string,
    previousExpiresAt: number,
    now: number,
  ): Promise<WebhookEndpoint | undefined>;
  /**
   * Applies the tenant's change. Disabling keeps an endpoint already disabled as it is; enabling a disabled one clears its reason and
   * failures and notes `enabled_at`. Returns the endpoint after, or undefined when it is gone.
   */
  update(tenantId: string, id: string, change: EndpointChange, now: number): Promise<WebhookEndpoint | undefined>;
  /** Notes a failed attempt at `at`, unless one since the last success is noted already. */
  noteFailure(tenantId: string, id: string, at: number): Promise<void>;
  /** Notes a successful attempt: the endpoint is failing no more. */
  noteSuccess(tenantId: string, id: string): Promise<void>;
  /**
   * Disables the endpoint for failing since `failingSince` (as read); undefined when it is gone, disabled already, or had a success
   * meanwhile, so only one caller disables it.
   */
  disableFailing(tenantId: string, id: string, failingSince: string, now: number): Promise<WebhookEndpoint | undefined>;
}

const PARTITION = 'WEBHOOK#';
const SLOT = 'SLOT#';
const slotKey = (slot: number) => `${SLOT}${String(slot).padStart(2, '0')}`;

/** What an endpoint item holds; read back with this schema, never cast. */
const storedEndpoint = lazy(() =>
  z.object({
    sk: z.string(),
    id: z.string(),
    tenant_id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.optional(z.string()),
    secret: z.string(),
    previous_secret: z.optional(z.string()),
    previous_secret_expires_at: z.optional(z.string()),
    disabled: z.optional(z.boolean()),
    disabled_reason: z.optional(z.enum(['requested', 'failing'])),
    disabled_at: z.optional(z.string()),
    failing_since: z.optional(z.string()),
    enabled_at: z.optional(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);

function endpointOf(item: Record<string, unknown>): WebhookEndpoint & { slot: string } {
  const parsed = storedEndpoint().safeParse(item);
  if (!parsed.success)
    throw new Error(
      `Malformed webhook endpoint item ${String(item.pk)}/${String(item.sk)}: ${parsed.error.issues[0]?.message ?? 'unknown problem'}`,
    );
  const { sk, ...endpoint } = parsed.data;
  return { ...endpoint, slot: sk };
}

const withoutSlot = ({ slot: _slot, ...endpoint }: WebhookEndpoint & { slot: string }): WebhookEndpoint => endpoint;

/** EndpointStore on the single table (`WEBHOOK#<tenant>` / `SLOT#<nn>`). */
export function dynamoEndpointStore(db: DynamoDBDocumentClient, tableName: string): EndpointStore {
  const listSlots = async (tenantId: string) => {
    const { Items = [] } = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :slot)',
        ExpressionAttributeValues: { ':pk': `${PARTITION}${tenantId}`, ':slot': SLOT },
        ConsistentRead: true,
      }),
    );
    return Items.map(endpointOf).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  };
  const find = async (tenantId: string, id: string) =>
    (await listSlots(tenantId)).find((endpoint) => endpoint.id === id && endpoint.tenant_id === tenantId);

  /** One conditional update of the endpoint's slot (still holding it, and `condition`); the endpoint after, or undefined. */
  const updateEndpoint = async (
    tenantId: string,
    id: string,
    input: { update: string; condition?: string; names?: Record<string, string>; values?: Record<string, unknown> },
  ): Promise<WebhookEndpoint | undefined> => {
    const found = await find(tenantId, id);
    if (!found) return undefined;
    try {
      const { Attributes } = await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: `${PARTITION}${tenantId}`, sk: found.slot },
          UpdateExpression: input.update,
          ConditionExpression: `#id = :id${input.condition ? ` AND ${input.condition}` : ''}`,
          ExpressionAttributeNames: { '#id': 'id', ...input.names },
          ExpressionAttributeValues: { ':id': id, ...input.values },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? withoutSlot(endpointOf(Attributes)) : undefined;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
  };

  const store: EndpointStore = {
    async list(tenantId) {
      return (await listSlots(tenantId)).map(withoutSlot);
    },

    async get(tenantId, id) {
      const found = await find(tenantId, id);
      return found && withoutSlot(found);
    },

    async create(endpoint) {
      // Two passes: a slot taken by a concurrent registration between our read and our write sends us to the next free one.
      for (let pass = 0; pass < 2; pass++) {
        const used = new Set((await listSlots(endpoint.tenant_id)).map((item) => item.slot));
        const free = Array.from({ length: MAX_ENDPOINTS_PER_TENANT }, (_, slot) => slotKey(slot)).filter((slot) => !used.has(slot));
        if (free.length === 0) return false;
        for (const slot of free) {
          try {
            await db.send(
              new PutCommand({
                TableName: tableName,
                Item: { pk: `${PARTITION}${endpoint.tenant_id}`, sk: slot, ...endpoint },
                ConditionExpression: 'attribute_not_exists(pk)',
              }),
            );
            return true;
          } catch (error) {
            if (!isConditionalCheckFailed(error)) throw error;
          }
        }
      }
      return false;
    },

    async remove(tenantId, id) {
      const found = await find(tenantId, id);
      if (!found) return false;
      try {
        await db.send(
          new DeleteCommand({
            TableName: tableName,
            Key: { pk: `${PARTITION}${tenantId}`, sk: found.slot },
            ConditionExpression: '#id = :id',
            ExpressionAttributeNames: { '#id': 'id' },
            ExpressionAttributeValues: { ':id': id },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },

    async rotateSecret(tenantId, id, expected, secret, previousExpiresAt, now) {
      const found = await find(tenantId, id);
      if (!found || found.secret !== expected) return undefined;
      const at = new Date(now).toISOString();
      const keepPrevious = previousExpiresAt > now;
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: `${PARTITION}${tenantId}`, sk: found.slot },
            UpdateExpression: keepPrevious
              ? 'SET #secret = :secret, previous_secret = :previous, previous_secret_expires_at = :expires, updated_at = :at'
              : 'SET #secret = :secret, updated_at = :at REMOVE previous_secret, previous_secret_expires_at',
            ConditionExpression: '#id = :id AND #secret = :previous',
            ExpressionAttributeNames: { '#id': 'id', '#secret': 'secret' },
            ExpressionAttributeValues: {
              ':id': id,
              ':secret': secret,
              ':previous': expected,
              ':at': at,
              ...(keepPrevious ? { ':expires': new Date(previousExpiresAt).toISOString() } : {}),
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return Attributes ? withoutSlot(endpointOf(Attributes)) : undefined;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return undefined;
        throw error;
      }
    },

    async update(tenantId, id, change, now) {
      const at = new Date(now).toISOString();
      const sets = ['updated_at = :at'];
      const removals: string[] = [];
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = { ':at': at };
      if (change.url !== undefined) {
        sets.push('#url = :url');
        names['#url'] = 'url';
        values[':url'] = change.url;
      }
      if (change.events !== undefined) {
        sets.push('events = :events');
        values[':events'] = change.events;
      }
      if (change.description === null) removals.push('description');
      else if (change.description !== undefined) {
        sets.push('description = :description');
        values[':description'] = change.description;
      }
      const current = await find(tenantId, id);
      if (!current) return undefined;
      if (change.disabled === true && !current.disabled) {
        sets.push('disabled = :true', 'disabled_reason = :requested', 'disabled_at = :at');
        Object.assign(values, { ':true': true, ':requested': 'requested' });
      }
      if (change.disabled === false && current.disabled) {
        sets.push('enabled_at = :at');
        removals.push('disabled', 'disabled_reason', 'disabled_at', 'failing_since');
      }
      return updateEndpoint(tenantId, id, {
        update: `SET ${sets.join(', ')}${removals.length > 0 ? ` REMOVE ${removals.join(', ')}` : ''}`,
        names,
        values,
      });
    },

    async noteFailure(tenantId, id, at) {
      await updateEndpoint(tenantId, id, {
        update: 'SET failing_since = :at',
        condition: 'attribute_not_exists(failing_since) AND attribute_not_exists(disabled)',
        values: { ':at': new Date(at).toISOString() },
      });
    },

    async noteSuccess(tenantId, id) {
      await updateEndpoint(tenantId, id, { update: 'REMOVE failing_since', condition: 'attribute_exists(failing_since)' });
    },

    disableFailing(tenantId, id, failingSince, now) {
      const at = new Date(now).toISOString();
      return updateEndpoint(tenantId, id, {
        update: 'SET disabled = :true, disabled_reason = :failing, disabled_at = :at, updated_at = :at',
        condition: 'failing_since = :since AND attribute_not_exists(disabled)',
        values: { ':true': true, ':failing': 'failing', ':at': at, ':since': failingSince },
      });
    },
  };
  // What decides which endpoints an event goes to (enabled, events, existence) tells this process's cached lists.
  return {
    ...store,
    create: announcingChange(store.create),
    remove: announcingChange(store.remove),
    update: announcingChange(store.update),
    disableFailing: announcingChange(store.disableFailing),
  };
}

/** A change that, done or not, tells the endpoint caches of this process to read again. */
function announcingChange<Args extends unknown[], Result>(change: (...args: Args) => Promise<Result>): (...args: Args) => Promise<Result> {
  return async (...args) => {
    try {
      return await change(...args);
    } finally {
      endpointsChanged();
    }
  };
}
