import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../../platform/dynamodb';
import { itemKey } from '../../sites/dynamo-directory';
import type { Interaction } from '../../sites/schema';

/** Most interactions a lead keeps (the site model's limit). */
export const MAX_LEAD_INTERACTIONS = 500;

/** What became of an interaction to record. */
export type InteractionOutcome = 'recorded' | 'already_recorded' | 'lead_full' | 'lead_missing';

/**
 * Port: adds a lead event to the lead's `interactions` (the site model's
 * `{date, type, summary}`), once per event id, so later follow-ups are
 * written knowing it.
 */
export interface LeadInteractions {
  record(siteId: string, leadId: string, eventId: string, interaction: Interaction): Promise<InteractionOutcome>;
}

/**
 * LeadInteractions on the lead's own item (`SITE#<site>` / `LEADS#<lead>`):
 * one conditional UpdateItem appends the interaction and the event's id to
 * `interaction_event_ids`, unless that id is there already or the lead holds
 * {@link MAX_LEAD_INTERACTIONS}.
 */
export function dynamoLeadInteractions(db: DynamoDBDocumentClient, tableName: string): LeadInteractions {
  return {
    async record(siteId, leadId, eventId, interaction) {
      const key = itemKey(siteId, 'leads', leadId);
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key,
            UpdateExpression: 'SET interactions = list_append(if_not_exists(interactions, :none), :added), interaction_event_ids = list_append(if_not_exists(interaction_event_ids, :none), :ids)',
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(interaction_event_ids) OR NOT contains(interaction_event_ids, :id)) AND (attribute_not_exists(interactions) OR size(interactions) < :max)',
            ExpressionAttributeValues: { ':none': [], ':added': [interaction], ':ids': [eventId], ':id': eventId, ':max': MAX_LEAD_INTERACTIONS },
          }),
        );
        return 'recorded';
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true, ProjectionExpression: 'pk, interaction_event_ids' }));
      if (!Item) return 'lead_missing';
      return Array.isArray(Item.interaction_event_ids) && Item.interaction_event_ids.includes(eventId) ? 'already_recorded' : 'lead_full';
    },
  };
}
