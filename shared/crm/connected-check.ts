import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../platform/clock';
import { keyedCache } from '../platform/keyed-cache';
import type { CrmProviderName } from '../providers/crm/port';
import { connectionGeneration } from './connection-changes';
import { connectionKey } from './dynamo-connection-store';

/** Port: whether a tenant has a connection to the CRM (its state aside: the sync worker decides what an unusable one does). */
export type ConnectedCheck = (tenantId: string) => Promise<boolean>;

/**
 * How long a function keeps the answer: nearly every tenant has no CRM and
 * every completed lead follow-up asks. A connection made or removed in
 * another function is seen within this time; in the function that made it
 * (and everywhere under `npm start`), at once.
 */
export const CONNECTED_CHECK_TTL_MS = 5_000;

/** ConnectedCheck on the single table: one GetItem of the connection's key (`CRM#<tenant>`), kept `ttlMs` per tenant. */
export function dynamoConnectedCheck(
  db: DynamoDBDocumentClient,
  tableName: string,
  clock: Pick<Clock, 'now'>,
  provider: CrmProviderName = 'hubspot',
  ttlMs: number = CONNECTED_CHECK_TTL_MS,
): ConnectedCheck {
  const connected = (tenantId: string) =>
    db
      .send(new GetCommand({ TableName: tableName, Key: connectionKey(tenantId, provider), ProjectionExpression: 'pk' }))
      .then(({ Item }) => Item !== undefined);
  return keyedCache(connected, { ttlMs, clock, generation: connectionGeneration });
}
