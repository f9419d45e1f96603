import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { TransactionItem } from '../../platform/dynamodb';
import { lazy } from '../../platform/memo';
import { cancellationReasons, isConditionalCheckFailed } from '../../platform/dynamodb-errors';
import { FOLLOW_UP_TYPES } from '../vocabulary';
import { LEAD_EVENT_TYPES, type LeadEvent, type PlannedChange } from './adaptation';
import { STEP_STATUSES, type StepStatus } from './step';

/** One change an event made to a step, as the answer and `sequence.adapted` show it. */
export interface AppliedChange {
  follow_up_id: string;
  change: 'cancelled' | 'rescheduled';
  previous_status: StepStatus;
  status: StepStatus;
  previous_scheduled_for: string;
  scheduled_for: string;
}

/** What an event did, once it is done. */
export interface EventOutcome {
  changes: AppliedChange[];
  interaction_recorded: boolean;
  /** The lead follow-up a reply started to draft its answer. */
  command_id?: string;
}

/**
 * A lead event as recorded (`FOLLOWUP#EVENT#<id>`): the event, the changes
 * decided for it before any was made (a retry makes exactly these), and,
 * once done, what they came to. Kept as long as a command is.
 */
export interface LeadEventRecord {
  id: string;
  tenant_id: string;
  site_id: string;
  lead_id: string;
  event: LeadEvent;
  plan: PlannedChange[];
  outcome?: EventOutcome;
  created_at: string;
  expires_at: number;
}

/** Port: the records of lead events. */
export interface LeadEventRecords {
  get(id: string): Promise<LeadEventRecord | undefined>;
  /** Keeps a new record; when one with its id exists already (a concurrent retry), that one is returned and kept. */
  create(record: LeadEventRecord): Promise<LeadEventRecord>;
  /**
   * Adds the outcome (once: a second completion keeps the first, and
   * answers false), with `also` (the event it announces) in the same transaction.
   */
  keepOutcome(id: string, outcome: EventOutcome, also?: readonly TransactionItem[]): Promise<boolean>;
}

/** The stored record's shape, built on first use: only a replayed event reads a record back. */
const recordSchema = lazy((): z.ZodMiniType<LeadEventRecord> => {
  const iso = z.string().check(z.minLength(1), z.maxLength(64));
  const status = z.enum(STEP_STATUSES);

  return z.object({
    id: z.string(),
    tenant_id: z.string(),
    site_id: z.string(),
    lead_id: z.string(),
    event: z.object({
      type: z.enum(LEAD_EVENT_TYPES),
      occurred_at: iso,
      channel: z.nullable(z.enum(FOLLOW_UP_TYPES)),
      summary: z.nullable(z.string()),
    }),
    plan: z.array(
      z.discriminatedUnion('action', [
        z.object({ follow_up_id: z.string(), action: z.literal('cancel'), from_status: status, scheduled_for: iso }),
        z.object({
          follow_up_id: z.string(),
          action: z.literal('reschedule'),
          from_status: z.literal('scheduled'),
          scheduled_for: iso,
          to_scheduled_for: iso,
        }),
      ]),
    ),
    outcome: z.optional(
      z.object({
        changes: z.array(
          z.object({
            follow_up_id: z.string(),
            change: z.enum(['cancelled', 'rescheduled']),
            previous_status: status,
            status,
            previous_scheduled_for: iso,
            scheduled_for: iso,
          }),
        ),
        interaction_recorded: z.boolean(),
        command_id: z.optional(z.string()),
      }),
    ),
    created_at: iso,
    expires_at: z.number(),
  });
});

function recordKey(id: string): { pk: string; sk: string } {
  return { pk: `FOLLOWUP#EVENT#${id}`, sk: 'EVENT' };
}

function parseRecord(item: Record<string, unknown>): LeadEventRecord {
  const { pk: _pk, sk: _sk, ...rest } = item;
  const parsed = recordSchema().safeParse(rest);
  if (!parsed.success)
    throw new Error(`Stored lead event ${String(item.id)} is malformed: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** LeadEventRecords on the single table, under the follow-ups' prefix (`FOLLOWUP#EVENT#<id>`), expiring through TTL. */
export function dynamoLeadEventRecords(db: DynamoDBDocumentClient, tableName: string): LeadEventRecords {
  const get = async (id: string) => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: recordKey(id), ConsistentRead: true }));
    return Item ? parseRecord(Item) : undefined;
  };
  return {
    get,
    async create(record) {
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...recordKey(record.id), ...record },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return record;
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const existing = await get(record.id);
        if (!existing) throw new Error(`Lead event ${record.id} exists and cannot be read`);
        return existing;
      }
    },
    async keepOutcome(id, outcome, also = []) {
      const update = {
        TableName: tableName,
        Key: recordKey(id),
        UpdateExpression: 'SET #outcome = :outcome',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#outcome)',
        ExpressionAttributeNames: { '#outcome': 'outcome' },
        ExpressionAttributeValues: { ':outcome': outcome },
      };
      try {
        if (also.length === 0) await db.send(new UpdateCommand(update));
        else await db.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...also] }));
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error) || cancellationReasons(error)?.[0] === 'ConditionalCheckFailed') return false;
        throw error;
      }
    },
  };
}
