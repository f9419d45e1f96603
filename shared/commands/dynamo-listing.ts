import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TABLE } from '../catalogue/table';
import { epochSeconds } from '../platform/clock';
import type { CommandListing, CommandListQuery, CommandSummary } from './listing';
import { tenantListingPartition } from './listing';
import { commandKey } from './store';

const INDEX = TABLE.indexes[2];

/**
 * Index pages one request reads at most. DynamoDB's Limit counts items
 * before the filter, so a rare type or status could otherwise read a
 * tenant's whole history in one request: past this bound the page is
 * answered short, with a cursor to go on.
 */
export const MAX_INDEX_PAGES = 10;

/** Index items read per page while filters are set (a filtered page keeps only some). */
export const FILTERED_PAGE_ITEMS = 100;

/** How much of the index one request may read (the defaults above; smaller in tests). */
export interface ListingBounds {
  maxIndexPages: number;
  filteredPageItems: number;
}

/** CommandListing on the table's gsi3: one Query per page, newest first. */
export function dynamoCommandListing(
  db: DynamoDBDocumentClient,
  tableName: string,
  bounds: ListingBounds = { maxIndexPages: MAX_INDEX_PAGES, filteredPageItems: FILTERED_PAGE_ITEMS },
): CommandListing {
  return {
    async listForTenant(query) {
      const partition = tenantListingPartition(query.tenantId);
      const { keyCondition, filter, names, values } = expressionOf(query, partition);
      const filtered = Boolean(query.types?.length || query.statuses?.length || query.siteId);
      const commands: CommandSummary[] = [];
      let startKey: Record<string, unknown> | undefined = query.after ? startKeyOf(partition, query.after) : undefined;
      let next: string | undefined;
      for (let round = 0; round < bounds.maxIndexPages && commands.length < query.limit; round++) {
        const wanted = query.limit - commands.length;
        const page = await db.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: INDEX.name,
            KeyConditionExpression: keyCondition,
            FilterExpression: filter,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ScanIndexForward: false,
            Limit: filtered ? Math.max(wanted, bounds.filteredPageItems) : wanted,
            ...(startKey ? { ExclusiveStartKey: startKey } : {}),
          }),
        );
        const items = page.Items ?? [];
        const taken = items.slice(0, wanted);
        commands.push(...taken.map(summaryOf));
        startKey = page.LastEvaluatedKey;
        // A page with more matches than room ends at the last one taken; otherwise where DynamoDB stopped.
        next = taken.length < items.length ? String(taken.at(-1)![INDEX.sortKey]) : startKey && String(startKey[INDEX.sortKey]);
        if (!startKey || taken.length < items.length) break;
      }
      return { commands, ...(next !== undefined ? { next } : {}) };
    },
  };
}

/** The key condition (partition, creation window) and the filter (expiry, type, status, site) of a query. */
function expressionOf(query: CommandListQuery, partition: string) {
  const names: Record<string, string> = { '#pk': INDEX.partitionKey, '#expires': TABLE.ttlAttribute };
  const values: Record<string, unknown> = { ':pk': partition, ':now': epochSeconds(query.now) };
  // Sort keys are `<created_at>#<id>`: `<after>` sorts before every key created at it, `<before>` after every key created before it.
  let keyCondition = '#pk = :pk';
  if (query.createdAfter !== undefined || query.createdBefore !== undefined) {
    names['#sk'] = INDEX.sortKey;
    if (query.createdAfter !== undefined) values[':after'] = query.createdAfter;
    if (query.createdBefore !== undefined) values[':before'] = query.createdBefore;
    if (query.createdAfter !== undefined && query.createdBefore !== undefined) keyCondition += ' AND #sk BETWEEN :after AND :before';
    else keyCondition += query.createdAfter !== undefined ? ' AND #sk >= :after' : ' AND #sk < :before';
  }
  const filters = ['(attribute_not_exists(#expires) OR #expires > :now)'];
  const oneOf = (attribute: string, prefix: string, options: readonly string[] | undefined) => {
    if (!options?.length) return;
    names[`#${attribute}`] = attribute;
    options.forEach((option, index) => (values[`:${prefix}${index}`] = option));
    filters.push(`#${attribute} IN (${options.map((_, index) => `:${prefix}${index}`).join(', ')})`);
  };
  oneOf('type', 't', query.types);
  oneOf('status', 's', query.statuses);
  oneOf('site_id', 'site', query.siteId === undefined ? undefined : [query.siteId]);
  return { keyCondition, filter: filters.join(' AND '), names, values };
}

/** Where a page starts: the index entry of the previous page's last command (its table key derives from its id). */
function startKeyOf(partition: string, sortKey: string): Record<string, unknown> {
  const id = sortKey.slice(sortKey.lastIndexOf('#') + 1);
  return { ...commandKey(id), [INDEX.partitionKey]: partition, [INDEX.sortKey]: sortKey };
}

function summaryOf(item: Record<string, unknown>): CommandSummary {
  return {
    id: String(item.id),
    type: item.type as CommandSummary['type'],
    status: item.status as CommandSummary['status'],
    ...(typeof item.site_id === 'string' ? { site_id: item.site_id } : {}),
    created_at: String(item.created_at),
    updated_at: String(item.updated_at),
    ...(typeof item.finished_at === 'string' ? { finished_at: item.finished_at } : {}),
    ...(typeof item.error_code === 'string' ? { error: { code: item.error_code } } : {}),
  };
}
