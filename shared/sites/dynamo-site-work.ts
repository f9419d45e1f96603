import { DeleteCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { TransactionItem } from '../platform/dynamodb';
import type { CallRequirement, CallTask, SiteWorkOwner, SiteWorkStore } from './site-work';

/**
 * Where a tenant's call-made work on a site lives: `SITEWORK#<tenant id>#<site id>`,
 * a key prefix of its own rather than the site's collections under `SITE#`, so
 * the summary worker is granted writes to it only, never to sites, and no
 * query of a site's shared collections meets another tenant's items. Tenant
 * ids hold no `#`, so one tenant's partition is never another's.
 */
export function siteWorkPartition(owner: SiteWorkOwner): string {
  return `SITEWORK#${owner.tenantId}#${owner.siteId}`;
}

/** Sort keys: `TASK#<command id>#<nn>` and `REQ#<command id>#<nn>`; command ids are time-ordered, so a descending query is newest first. */
const SORT_PREFIX = { task: 'TASK#', requirement: 'REQ#' } as const;

const priority = z.enum(['high', 'medium', 'low']);
const nullableText = z.nullable(z.string());
const taskSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.literal('open'),
  owner: nullableText,
  due_date: nullableText,
  priority,
  description: z.string(),
  source_command_id: z.string(),
  created_at: z.string(),
});
const requirementSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(['proposed', 'pending_approval']),
  estimated_cost: z.nullable(z.number()),
  currency: nullableText,
  priority,
  owner: nullableText,
  needs_approval: z.boolean(),
  description: z.string(),
  source_command_id: z.string(),
  created_at: z.string(),
});

/** SiteWorkStore on the single DynamoDB table. */
export function dynamoSiteWorkStore(db: DynamoDBDocumentClient, tableName: string): SiteWorkStore {
  const sortKey = (kind: keyof typeof SORT_PREFIX, item: { id: string; source_command_id: string }) =>
    `${SORT_PREFIX[kind]}${item.source_command_id}#${item.id.slice(item.id.lastIndexOf('-') + 1)}`;
  const put = (owner: SiteWorkOwner, sk: string, item: CallTask | CallRequirement): TransactionItem => ({
    Put: {
      TableName: tableName,
      Item: { pk: siteWorkPartition(owner), sk, tenant_id: owner.tenantId, site_id: owner.siteId, ...item },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
  const list = async <T extends { id: string; source_command_id: string }>(
    owner: SiteWorkOwner,
    prefix: string,
    limit: number,
    schema: z.ZodMiniType<T>,
  ): Promise<T[]> => {
    if (limit <= 0) return [];
    const { Items = [] } = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': siteWorkPartition(owner), ':prefix': prefix },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    // Newest call first; one call's items in the order the call listed them (ids end in their zero-padded position).
    return Items.map((item) => schema.parse(item)).sort((a, b) =>
      a.source_command_id === b.source_command_id ? a.id.localeCompare(b.id) : b.source_command_id.localeCompare(a.source_command_id),
    );
  };

  return {
    recordItems(owner, work) {
      return [
        ...work.tasks.map((task) => put(owner, sortKey('task', task), task)),
        ...work.requirements.map((requirement) => put(owner, sortKey('requirement', requirement), requirement)),
      ];
    },

    async listTasks(owner, limit) {
      return list<CallTask>(owner, SORT_PREFIX.task, limit, taskSchema);
    },

    async listRequirements(owner, limit) {
      return list<CallRequirement>(owner, SORT_PREFIX.requirement, limit, requirementSchema);
    },

    async eraseForCommand(owner, commandId) {
      const erased = { task_ids: [] as string[], requirement_ids: [] as string[] };
      for (const [kind, prefix] of Object.entries(SORT_PREFIX)) {
        const { Items = [] } = await db.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': siteWorkPartition(owner), ':prefix': `${prefix}${commandId}#` },
          }),
        );
        for (const item of Items) {
          await db.send(new DeleteCommand({ TableName: tableName, Key: { pk: item.pk, sk: item.sk } }));
          erased[kind === 'task' ? 'task_ids' : 'requirement_ids'].push(String(item.id));
        }
      }
      return erased;
    },
  };
}
