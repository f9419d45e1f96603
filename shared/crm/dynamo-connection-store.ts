import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { queryUpTo } from '../platform/dynamodb';
import { cancellationReasons, isConditionalCheckFailed } from '../platform/dynamodb-errors';
import { lazy } from '../platform/memo';
import type { SecretBox } from '../platform/secret-box';
import type { CrmProviderName } from '../providers/crm/port';
import { connectionsChanged } from './connection-changes';
import { LEAD_STATUS_TRIGGERS } from './lead-status';
import { ConnectionChangedError, type ConnectionStore, type CrmConnection, type CrmConnectionSecrets } from './connection-store';

/** The most tenants a webhook call for one portal is handed to: each needs its own token for that portal. */
export const MAX_TENANTS_PER_PORTAL = 100;

/** `CRM#<tenant id>`: the tenant's connections, one item per provider (`sk` `CONNECTION#<provider>`). */
const CONNECTION_PARTITION = 'CRM#';
const CONNECTION_SORT = 'CONNECTION#';
/** `CRMPORTAL#<provider>#<portal id>`: one item per tenant connected to the portal (`sk` the tenant id). */
const PORTAL_PARTITION = 'CRMPORTAL#';

/** The item of a tenant's connection to a provider. */
export const connectionKey = (tenantId: string, provider: CrmProviderName) => ({
  pk: `${CONNECTION_PARTITION}${tenantId}`,
  sk: `${CONNECTION_SORT}${provider}`,
});
const portalKey = (provider: CrmProviderName, portalId: string, tenantId: string) => ({
  pk: `${PORTAL_PARTITION}${provider}#${portalId}`,
  sk: tenantId,
});

/** What each secret is sealed as: a value sealed as one never opens as the other, nor for another tenant. */
const purposeOf = (provider: CrmProviderName, field: 'access_token' | 'client_secret') => `crm:${provider}:${field}`;

/** A connection item; read back with this schema, never cast. */
const storedConnection = lazy(() =>
  z.object({
    tenant_id: z.string(),
    provider: z.literal('hubspot'),
    portal_id: z.string(),
    scopes: z.array(z.string()),
    lead_status_map: z._default(z.partialRecord(z.enum(LEAD_STATUS_TRIGGERS), z.string()), {}),
    connected_at: z.string(),
    updated_at: z.string(),
    last_sync_at: z.optional(z.string()),
    last_error: z.optional(z.object({ at: z.string(), message: z.string() })),
    access_token_sealed: z.string(),
    client_secret_sealed: z.optional(z.string()),
  }),
);

type StoredConnection = z.infer<ReturnType<typeof storedConnection>>;

function parseItem(item: Record<string, unknown>): StoredConnection {
  const parsed = storedConnection().safeParse(item);
  if (!parsed.success) {
    throw new Error(
      `Malformed CRM connection item ${String(item.pk)}/${String(item.sk)}: ${parsed.error.issues[0]?.message ?? 'unknown problem'}`,
    );
  }
  return parsed.data;
}

function connectionOf(stored: StoredConnection): CrmConnection {
  const { access_token_sealed: _token, client_secret_sealed: clientSecret, ...connection } = stored;
  return { ...connection, has_client_secret: clientSecret !== undefined };
}

/**
 * ConnectionStore on the single table: the connection at `CRM#<tenant id>` /
 * `CONNECTION#<provider>` with its secrets sealed by `box` (AES-256-GCM,
 * the tenant's own key; the box is asked for only when a secret is sealed or
 * opened), and an entry per connected tenant at
 * `CRMPORTAL#<provider>#<portal id>` / `<tenant id>`, written in the same
 * transactions, which the webhook receiver queries to find the tenants of
 * the portal a HubSpot call names.
 */
export function dynamoConnectionStore(db: DynamoDBDocumentClient, tableName: string, boxOf: () => Promise<SecretBox>): ConnectionStore {
  const read = async (tenantId: string, provider: CrmProviderName): Promise<StoredConnection | undefined> => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: connectionKey(tenantId, provider), ConsistentRead: true }));
    return Item ? parseItem(Item) : undefined;
  };

  const store: ConnectionStore = {
    async get(tenantId, provider) {
      const stored = await read(tenantId, provider);
      return stored ? connectionOf(stored) : undefined;
    },

    async credentials(tenantId, provider) {
      const stored = await read(tenantId, provider);
      if (!stored) return undefined;
      const box = await boxOf();
      const secrets: CrmConnectionSecrets = {
        accessToken: box.open({ tenantId, purpose: purposeOf(provider, 'access_token') }, stored.access_token_sealed),
        ...(stored.client_secret_sealed
          ? { clientSecret: box.open({ tenantId, purpose: purposeOf(provider, 'client_secret') }, stored.client_secret_sealed) }
          : {}),
      };
      return { connection: connectionOf(stored), secrets };
    },

    async save(connection, secrets, previous) {
      const { tenant_id: tenantId, provider } = connection;
      const box = await boxOf();
      const { has_client_secret: _derived, ...fields } = connection;
      const item = {
        ...connectionKey(tenantId, provider),
        ...fields,
        access_token_sealed: box.seal({ tenantId, purpose: purposeOf(provider, 'access_token') }, secrets.accessToken),
        ...(secrets.clientSecret
          ? { client_secret_sealed: box.seal({ tenantId, purpose: purposeOf(provider, 'client_secret') }, secrets.clientSecret) }
          : {}),
      };
      const portalMoved = previous !== undefined && previous.portal_id !== connection.portal_id;
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: item,
                  // Replaces only what the caller read: none, or the connection with that portal and update time.
                  ...(previous
                    ? {
                        ConditionExpression: 'portal_id = :portal AND updated_at = :updated',
                        ExpressionAttributeValues: { ':portal': previous.portal_id, ':updated': previous.updated_at },
                      }
                    : { ConditionExpression: 'attribute_not_exists(pk)' }),
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    ...portalKey(provider, connection.portal_id, tenantId),
                    tenant_id: tenantId,
                    provider,
                    portal_id: connection.portal_id,
                    connected_at: connection.connected_at,
                  },
                },
              },
              ...(portalMoved ? [{ Delete: { TableName: tableName, Key: portalKey(provider, previous.portal_id, tenantId) } }] : []),
            ],
          }),
        );
      } catch (error) {
        if (cancellationReasons(error)?.[0] === 'ConditionalCheckFailed') throw new ConnectionChangedError();
        throw error;
      }
    },

    async remove(tenantId, provider) {
      const stored = await read(tenantId, provider);
      if (!stored) return undefined;
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName: tableName,
                  Key: connectionKey(tenantId, provider),
                  ConditionExpression: 'portal_id = :portal',
                  ExpressionAttributeValues: { ':portal': stored.portal_id },
                },
              },
              { Delete: { TableName: tableName, Key: portalKey(provider, stored.portal_id, tenantId) } },
            ],
          }),
        );
      } catch (error) {
        // Removed (or reconnected to another portal) meanwhile: forget whatever is there now.
        if (cancellationReasons(error)?.[0] === 'ConditionalCheckFailed') return this.remove(tenantId, provider);
        throw error;
      }
      return connectionOf(stored);
    },

    async tenantsOfPortal(provider, portalId) {
      const items = await queryUpTo(
        db,
        {
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': portalKey(provider, portalId, '').pk },
          ConsistentRead: true,
        },
        MAX_TENANTS_PER_PORTAL,
      );
      return items.map((item) => String(item.sk));
    },

    async recordSync(tenantId, provider, outcome) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: connectionKey(tenantId, provider),
            ConditionExpression: 'attribute_exists(pk)',
            ...(outcome.error === undefined
              ? {
                  UpdateExpression: 'SET last_sync_at = :at REMOVE last_error',
                  ExpressionAttributeValues: { ':at': outcome.at },
                }
              : {
                  UpdateExpression: 'SET last_error = :error',
                  ExpressionAttributeValues: { ':error': { at: outcome.at, message: outcome.error } },
                }),
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },
  };
  // A connection made or removed is seen at once by this process's cached checks (connected-check.ts).
  return {
    ...store,
    save: (connection, secrets, previous) => store.save(connection, secrets, previous).finally(connectionsChanged),
    remove: (tenantId, provider) => store.remove(tenantId, provider).finally(connectionsChanged),
  };
}
