import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { commandKey } from '../commands/store';
import { epochSeconds } from '../platform/clock';
import { isConditionalCheckFailed } from '../platform/dynamodb-errors';

/** How long the token a socket connected with is held for its `setup` (Twilio sends it at once; the table's TTL deletes it). */
export const HELD_TOKEN_SECONDS = 60 * 60;

/**
 * Port: a call's one-time relay token on its way from the socket's
 * `$connect` (the only event whose URL, and so whose query, API Gateway
 * passes on) to its `setup` (the first that names the call), and spent
 * there. Only hashes are kept.
 */
export interface RelayTokenStore {
  /** `$connect`: keeps the hash of the token the socket's signed URL carried. */
  hold(connectionId: string, tokenHash: string, now: number): Promise<void>;
  /** The hash held for the socket, if any. */
  held(connectionId: string): Promise<string | undefined>;
  /**
   * `setup`: spends the call's token for this socket, in one conditional
   * write of the command: only the call's own token (its hash), only for
   * the call's own CallSid, only once. False when any of that did not hold.
   */
  spend(commandId: string, callSid: string, tokenHash: string, connectionId: string, now: number): Promise<boolean>;
}

/** Where the token a socket connected with is held: beside the socket's session, under its own sort key. */
function heldKey(connectionId: string): { pk: string; sk: string } {
  return { pk: `RELAY#${connectionId}`, sk: 'TOKEN' };
}

const heldSchema = z.object({ token_hash: z.string() });

/** RelayTokenStore on the single table: the held hash on the socket's partition, the spend on the command item. */
export function dynamoRelayTokens(db: DynamoDBDocumentClient, tableName: string): RelayTokenStore {
  return {
    async hold(connectionId, tokenHash, now) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...heldKey(connectionId), token_hash: tokenHash, expires_at: epochSeconds(now + HELD_TOKEN_SECONDS * 1000) },
        }),
      );
    },

    async held(connectionId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: heldKey(connectionId), ConsistentRead: true }));
      const parsed = heldSchema.safeParse(Item);
      return parsed.success ? parsed.data.token_hash : undefined;
    },

    async spend(commandId, callSid, tokenHash, connectionId, now) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: commandKey(commandId),
            UpdateExpression: 'SET #relay.spent_at = :now, #relay.connection_id = :connection',
            ConditionExpression: '#relay.token_hash = :hash AND attribute_not_exists(#relay.spent_at) AND #call.provider_call_id = :sid',
            ExpressionAttributeNames: { '#relay': 'relay', '#call': 'call' },
            ExpressionAttributeValues: {
              ':now': new Date(now).toISOString(),
              ':connection': connectionId,
              ':hash': tokenHash,
              ':sid': callSid,
            },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },
  };
}
