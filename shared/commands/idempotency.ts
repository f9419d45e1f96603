import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../platform/dynamodb-errors';
import { epochSeconds } from '../platform/clock';
import { AppError } from '../platform/errors';
import { canonicalJson, sha256Hex } from '../platform/hashing';

/** How long an Idempotency-Key holds: a repeat within this window replays the first command. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A request's claim on an Idempotency-Key. */
export interface IdempotencyClaim {
  tenantId: string;
  /** The operation the key was used for (a key is scoped per tenant and operation). */
  scope: string;
  key: string;
  /** Hash of the canonical request body. */
  bodyHash: string;
  /** The command this request would create if it is the first. */
  commandId: string;
  now: number;
}

/** `first`: this request owns the key; `replay`: an earlier one did, and created `commandId`. */
export type IdempotencyOutcome = { kind: 'first' } | { kind: 'replay'; commandId: string };

/**
 * Port: remembers which command an Idempotency-Key created. The first request
 * with a key wins a conditional write; a later one with the same body replays
 * that command, one with another body is refused (409 IDEMPOTENCY_CONFLICT).
 */
export interface IdempotencyStore {
  claim(claim: IdempotencyClaim): Promise<IdempotencyOutcome>;
  /**
   * Gives a claim back when its command was refused before anything was written (a limit): the key may then be
   * used again, with any body. Only the claim naming `commandId` is removed.
   */
  release(claim: Pick<IdempotencyClaim, 'tenantId' | 'scope' | 'key' | 'commandId'>): Promise<void>;
}

/**
 * The table key of a claim's record: `IDEM#` and the SHA-256 of the JSON
 * array `[tenant, scope, key]`, so no choice of key (`#` included) can name
 * another tenant's or operation's record.
 */
export function idempotencyRecordKey(claim: Pick<IdempotencyClaim, 'tenantId' | 'scope' | 'key'>): { pk: string; sk: string } {
  return { pk: `IDEM#${sha256Hex(canonicalJson([claim.tenantId, claim.scope, claim.key]))}`, sk: 'IDEM' };
}

/**
 * IdempotencyStore on the single table ({@link idempotencyRecordKey}, expiring
 * through TTL). The record names its tenant and scope, and a replay checks
 * both: a record that is not the claimant's is never returned.
 */
export function dynamoIdempotencyStore(db: DynamoDBDocumentClient, tableName: string): IdempotencyStore {
  const keyOf = idempotencyRecordKey;

  const tryWrite = async (claim: IdempotencyClaim): Promise<boolean> => {
    try {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keyOf(claim),
            tenant_id: claim.tenantId,
            scope: claim.scope,
            body_hash: claim.bodyHash,
            command_id: claim.commandId,
            created_at: new Date(claim.now).toISOString(),
            expires_at: epochSeconds(claim.now + IDEMPOTENCY_WINDOW_MS),
          },
          // An expired record (TTL deletion is lazy) counts as absent.
          ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
          ExpressionAttributeValues: { ':now': epochSeconds(claim.now) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  };

  return {
    async claim(claim) {
      if (await tryWrite(claim)) return { kind: 'first' };
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keyOf(claim), ConsistentRead: true }));
      if (!Item) {
        // Expired and swept between our write and read: try once more.
        if (await tryWrite(claim)) return { kind: 'first' };
        throw new Error('Idempotency record vanished twice; giving up');
      }
      if (Item.tenant_id !== claim.tenantId || Item.scope !== claim.scope) {
        throw new AppError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key cannot be used; send the request with another one.');
      }
      if (Item.body_hash !== claim.bodyHash) {
        throw new AppError(
          'IDEMPOTENCY_CONFLICT',
          'This Idempotency-Key was already used with a different request body within the last 24 hours.',
        );
      }
      return { kind: 'replay', commandId: String(Item.command_id) };
    },

    async release(claim) {
      try {
        await db.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keyOf(claim),
            ConditionExpression: 'command_id = :command',
            ExpressionAttributeValues: { ':command': claim.commandId },
          }),
        );
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },
  };
}
