import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../platform/dynamodb-errors';

/**
 * A conversation of a site: what a stakeholder call (and later its relay
 * and summary) is filed under. A request may name one it got earlier
 * (`conversationId`); one that names none starts a new one.
 */
export interface Conversation {
  id: string;
  site_id: string;
  /** The tenant whose request started it. */
  tenant_id: string;
  /** The command that started it. */
  command_id: string;
  created_at: string;
}

/**
 * Port: a site's conversations. A conversation is found only under its own
 * site, so one of another site reads as absent.
 */
export interface ConversationStore {
  get(siteId: string, conversationId: string): Promise<Conversation | undefined>;
  /** Writes a new conversation; false when one with that id already exists on the site. */
  create(conversation: Conversation): Promise<boolean>;
}

/**
 * Where a conversation lives: under `CONV#<site id>`, a key prefix of its
 * own rather than the site's collections under `SITE#`, so the function
 * that starts conversations is granted writes to conversations only, never
 * to sites, leads or agents.
 */
export function conversationKey(siteId: string, conversationId: string): { pk: string; sk: string } {
  return { pk: `CONV#${siteId}`, sk: `CONV#${conversationId}` };
}

/** ConversationStore on the single DynamoDB table. */
export function dynamoConversationStore(db: DynamoDBDocumentClient, tableName: string): ConversationStore {
  return {
    async get(siteId, conversationId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: conversationKey(siteId, conversationId) }));
      if (!Item) return undefined;
      const { pk: _pk, sk: _sk, ...conversation } = Item;
      return {
        id: String(conversation.id),
        site_id: String(conversation.site_id),
        tenant_id: String(conversation.tenant_id),
        command_id: String(conversation.command_id),
        created_at: String(conversation.created_at),
      };
    },

    async create(conversation) {
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...conversationKey(conversation.site_id, conversation.id), ...conversation },
            ConditionExpression: 'attribute_not_exists(pk)',
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
