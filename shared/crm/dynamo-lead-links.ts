import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { queryUpTo } from '../platform/dynamodb';
import { cancellationReasons } from '../platform/dynamodb-errors';
import type { CrmProviderName } from '../providers/crm/port';
import { LeadLinkedElsewhereError, type LeadLinks } from './lead-links';

/** The most leads one contact's webhook change reaches: one per site the tenant imported it into. */
export const MAX_LEADS_PER_CONTACT = 1_000;

/** `CRMLINK#<tenant id>#<provider>#…`: the tenant's links between its CRM's contacts and the sites' leads, both ways. */
const LINK_PARTITION = 'CRMLINK#';

/** Contact → lead: one item per site the contact was linked in (`sk` `SITE#<site id>`), so one Query finds them all. */
const contactKey = (tenantId: string, provider: CrmProviderName, contactId: string, siteId: string) => ({
  pk: `${LINK_PARTITION}${tenantId}#${provider}#CONTACT#${contactId}`,
  sk: `SITE#${siteId}`,
});
/** Lead → contact: one item per lead (`sk` `LEAD#<lead id>`); site and lead ids each end their key, so no two pairs share one. */
const leadKey = (tenantId: string, provider: CrmProviderName, siteId: string, leadId: string) => ({
  pk: `${LINK_PARTITION}${tenantId}#${provider}#SITE#${siteId}`,
  sk: `LEAD#${leadId}`,
});

const contactItem = z.object({ site_id: z.string(), lead_id: z.string() });
const leadItem = z.object({ contact_id: z.string() });

/**
 * LeadLinks on the single table: two items per link, written together in a
 * transaction whose conditions keep a contact to one lead per site and a
 * lead to one contact, so two imports racing on one contact agree on its lead.
 */
export function dynamoLeadLinks(db: DynamoDBDocumentClient, tableName: string, provider: CrmProviderName): LeadLinks {
  const contactOf = async (tenantId: string, siteId: string, leadId: string): Promise<string | undefined> => {
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName, Key: leadKey(tenantId, provider, siteId, leadId), ConsistentRead: true }),
    );
    return Item ? leadItem.parse(Item).contact_id : undefined;
  };

  /** One item read with a Query (pk and sk), so a writer needs Query and PutItem alone on these keys. */
  const queried = async (key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> => {
    const { Items } = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk = :sk',
        ExpressionAttributeValues: { ':pk': key.pk, ':sk': key.sk },
        ConsistentRead: true,
      }),
    );
    return Items?.[0];
  };

  return {
    provider,

    async link(tenantId, siteId, leadId, contactId) {
      const at = new Date().toISOString();
      const common = { tenant_id: tenantId, provider, site_id: siteId, lead_id: leadId, contact_id: contactId, linked_at: at };
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: { ...contactKey(tenantId, provider, contactId, siteId), ...common },
                  ConditionExpression: 'attribute_not_exists(pk) OR lead_id = :lead',
                  ExpressionAttributeValues: { ':lead': leadId },
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: { ...leadKey(tenantId, provider, siteId, leadId), ...common },
                  ConditionExpression: 'attribute_not_exists(pk) OR contact_id = :contact',
                  ExpressionAttributeValues: { ':contact': contactId },
                },
              },
            ],
          }),
        );
        return leadId;
      } catch (error) {
        // Refused (a condition, or a racing link's transaction): what is linked now decides.
        if (cancellationReasons(error) === undefined) throw error;
        const existing = await queried(contactKey(tenantId, provider, contactId, siteId));
        if (existing) return contactItem.parse(existing).lead_id;
        const other = await queried(leadKey(tenantId, provider, siteId, leadId));
        const otherContact = other ? leadItem.parse(other).contact_id : undefined;
        if (otherContact !== undefined && otherContact !== contactId) throw new LeadLinkedElsewhereError(otherContact);
        throw error;
      }
    },

    async leadOf(tenantId, contactId) {
      const items = await queryUpTo(
        db,
        {
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': contactKey(tenantId, provider, contactId, '').pk },
          ConsistentRead: true,
        },
        MAX_LEADS_PER_CONTACT,
      );
      return items.map((item) => {
        const { site_id: siteId, lead_id: leadId } = contactItem.parse(item);
        return { siteId, leadId };
      });
    },

    contactOf,
  };
}
