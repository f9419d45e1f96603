import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { isConditionalCheckFailed } from '../platform/dynamodb-errors';
import { epochSeconds } from '../platform/clock';
import { RELAY_LIMITS } from './limits';

/**
 * One ConversationRelay socket: the command and call its `setup` named.
 * API Gateway invokes the socket function once per message, knowing only
 * the connection id, so the session is kept in the table between them.
 */
export interface RelaySession {
  connection_id: string;
  command_id: string;
  tenant_id: string;
  /** Twilio's CallSid, checked against the command's call at setup. */
  call_sid: string;
  started_at: string;
  /** Set when the socket closed (or the assistant ended the session). */
  ended_at?: string;
  /**
   * What each turn needs of the command, copied at setup so a turn reads no
   * more of the command than its transcript: the pre-call prompt and the
   * meeting. Bounded by the command item it comes from (itself under
   * DynamoDB's 400 KB), and the session holds little else. Absent on a
   * session set up before it was kept here: the turn reads the command.
   */
  brief?: SessionBrief;
}

/** The call brief a session keeps (see `RelaySession.brief`). */
export interface SessionBrief {
  pre_call_prompt: string;
  meeting: { title: string; objective: string };
}

const sessionSchema = z.object({
  connection_id: z.string(),
  command_id: z.string(),
  tenant_id: z.string(),
  call_sid: z.string(),
  started_at: z.string(),
  ended_at: z.optional(z.string()),
  brief: z.optional(z.object({ pre_call_prompt: z.string(), meeting: z.object({ title: z.string(), objective: z.string() }) })),
});

/** Port: where socket sessions live. Each write is conditional: a session starts once, and ends once. */
export interface RelaySessionStore {
  /** Records a socket's setup; false when the socket already had one (a repeated `setup`). */
  start(session: RelaySession, now: number): Promise<boolean>;
  get(connectionId: string): Promise<RelaySession | undefined>;
  /** Marks it ended; false when it had ended already. */
  end(connectionId: string, now: number): Promise<boolean>;
}

/** Where a socket's session lives in the table. */
export function sessionKey(connectionId: string): { pk: string; sk: string } {
  return { pk: `RELAY#${connectionId}`, sk: 'RELAY' };
}

/** RelaySessionStore on the single table, each session deleted by the table's TTL a day after its setup. */
export function dynamoRelaySessions(db: DynamoDBDocumentClient, tableName: string): RelaySessionStore {
  return {
    async start(session, now) {
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...sessionKey(session.connection_id),
              ...session,
              expires_at: epochSeconds(now + RELAY_LIMITS.sessionRetentionSeconds * 1000),
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

    async get(connectionId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: sessionKey(connectionId), ConsistentRead: true }));
      if (!Item) return undefined;
      const parsed = sessionSchema.safeParse(Item);
      return parsed.success ? parsed.data : undefined;
    },

    async end(connectionId, now) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: sessionKey(connectionId),
            UpdateExpression: 'SET ended_at = :now',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(ended_at)',
            ExpressionAttributeValues: { ':now': new Date(now).toISOString() },
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
