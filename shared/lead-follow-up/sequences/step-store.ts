import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TABLE } from '../../catalogue/table';
import { queryUpTo } from '../../platform/dynamodb';
import { isConditionalCheckFailed } from '../../platform/dynamodb-errors';
import { epochSeconds } from '../../platform/clock';
import { followUpKey, leadPartition, leadSortKey, SCHEDULED_PARTITION, sitePartition } from '../follow-up-store';
import { followUpId } from '../follow-up-id';
import { MAX_SEQUENCE } from '../vocabulary';
import { FINAL_STEP_STATUSES, storedStepSchema, type StepAdaptation, type StepStatus, type StoredStep } from './step';

/** The gsi1 partition of steps made due whose `follow_up.due` is not yet published, by `<due_at>#<id>`. */
export const ANNOUNCING_PARTITION = 'FOLLOWUP#announcing';

/** Whose steps: one tenant's, of one lead of one site. */
export interface StepOwner {
  tenantId: string;
  siteId: string;
  leadId: string;
}

/** Where a page of a lead's steps ends: the last step's sort key and id. */
export interface StepCursor {
  sortKey: string;
  id: string;
}

/** A page of steps: at most `limit`, none expired at `now`, from after `after`, in `statuses` only when given. */
export interface StepListOptions {
  limit: number;
  now: number;
  after?: StepCursor;
  statuses?: readonly StepStatus[];
}

/** What a conditional change of a step sets. Absent fields are left as they are. */
export interface StepChange {
  /** ISO time of the change (`updated_at`, and `<status>_at` of a new status). */
  at: string;
  status?: Exclude<StepStatus, 'scheduled' | 'due'>;
  status_reason?: string;
  subject?: string;
  content?: string;
  /** A new time (the step stays scheduled); `expires_at` moves with it. */
  scheduled_for?: string;
  expires_at?: number;
  previous_scheduled_for?: string;
  adapted_by?: StepAdaptation;
}

/** What a change expects of the step, else it changes nothing. */
export interface StepExpectation {
  tenantId: string;
  /** The states it may be in. */
  statuses: readonly StepStatus[];
  /** Its current time, when the change depends on it (a reschedule). */
  scheduledFor?: string;
}

/**
 * Port: the steps of follow-up sequences, as they run. Every state change
 * is one conditional write, so two dispatchers, or a dispatcher and a
 * caller, never both move a step.
 */
export interface StepStore {
  /** A step by id (strongly consistent), whoever owns it; undefined when there is none. */
  get(id: string): Promise<StoredStep | undefined>;
  /**
   * A lead's steps of one tenant, in schedule order, up to `limit` (expired
   * ones left out), from after `after`; `next` is where the following page starts.
   */
  listForLead(owner: StepOwner, options: StepListOptions): Promise<{ steps: StoredStep[]; next?: StepCursor }>;
  /** The same, across the leads of one site (`owner` without a lead), in schedule order. */
  listForSite(owner: Omit<StepOwner, 'leadId'>, options: StepListOptions): Promise<{ steps: StoredStep[]; next?: StepCursor }>;
  /** Ids of scheduled steps due at or before `before` (ISO), earliest first (the index: eventually consistent). */
  listDue(before: string, limit: number): Promise<string[]>;
  /**
   * Moves a scheduled step whose time has come (at `at`) to `due`, into the announcing partition; undefined when another writer moved it
   * first.
   */
  markDue(id: string, at: string): Promise<StoredStep | undefined>;
  /** Ids of steps made due at or before `before` whose announcement is still pending. */
  listAnnouncing(before: string, limit: number): Promise<string[]>;
  /** Takes a step out of the announcing partition once its `follow_up.due` is published; false when it already left it. */
  markAnnounced(id: string, at: string): Promise<boolean>;
  /**
   * Applies a change if the step is as expected; the step after it, or undefined when it was not (missing, another tenant's, another
   * state).
   */
  change(id: string, change: StepChange, expected: StepExpectation): Promise<StoredStep | undefined>;
  /**
   * Holds a scheduled step of a paused sequence: it stays scheduled but leaves the due-time index, so no dispatcher
   * makes it due. False when it is not scheduled, is another tenant's, or is held already.
   */
  hold(id: string, pause: { tenantId: string; pausedAt: string; at: string }): Promise<boolean>;
  /**
   * Puts a step held by the pause of `pausedAt` back on the schedule at `scheduledFor` (its index entries and retention move
   * with it). False when it is no longer held by that pause (ended, or released already).
   */
  release(
    id: string,
    resume: { tenantId: string; pausedAt: string; at: string; scheduledFor: string; expiresAt: number },
  ): Promise<boolean>;
  /** Erases the steps a command's sequence made (tenant's own only); returns their ids. */
  eraseForCommand(commandId: string, tenantId: string): Promise<string[]>;
}

const [DUE_INDEX, LEAD_INDEX, SITE_INDEX] = [TABLE.indexes[0], TABLE.indexes[1], TABLE.indexes[2]];
type ListingIndex = typeof LEAD_INDEX | typeof SITE_INDEX;

/** Reads a stored step through its schema; a malformed item is a fault, never shown as a step. */
export function parseStoredStep(item: Record<string, unknown>): StoredStep {
  const parsed = storedStepSchema.safeParse(item);
  if (!parsed.success) throw new Error(`Stored follow-up ${String(item.id)} is malformed: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** StepStore on the single table: items `FOLLOWUP#<id>`, due times on gsi1, a lead's steps on gsi2, a site's on gsi3. */
export function dynamoStepStore(db: DynamoDBDocumentClient, tableName: string): StepStore {
  const indexIds = async (partition: string, before: string, limit: number): Promise<string[]> => {
    const items = await queryUpTo(
      db,
      {
        TableName: tableName,
        IndexName: DUE_INDEX.name,
        KeyConditionExpression: '#pk = :pk AND #sk < :upper',
        ExpressionAttributeNames: { '#pk': DUE_INDEX.partitionKey, '#sk': DUE_INDEX.sortKey },
        // Sort keys are "<iso>#<id>" and "$" sorts right after "#": everything at `before` is included.
        ExpressionAttributeValues: { ':pk': partition, ':upper': `${before}$` },
      },
      limit,
    );
    return items.map((item) => String(item.id));
  };

  /** A page of one index partition's steps in schedule order (gsi2: a lead's, gsi3: a site's), filtered as `options` say. */
  const listIn = async (
    index: ListingIndex,
    partition: string,
    options: StepListOptions,
  ): Promise<{ steps: StoredStep[]; next?: StepCursor }> => {
    const names: Record<string, string> = { '#pk': index.partitionKey, '#expires': TABLE.ttlAttribute };
    const values: Record<string, unknown> = { ':pk': partition, ':now': epochSeconds(options.now) };
    let filter = '(attribute_not_exists(#expires) OR #expires > :now)';
    if (options.statuses?.length) {
      names['#status'] = 'status';
      options.statuses.forEach((status, position) => (values[`:s${position}`] = status));
      filter += ` AND #status IN (${options.statuses.map((_, position) => `:s${position}`).join(', ')})`;
    }
    const steps: StoredStep[] = [];
    let startKey: Record<string, unknown> | undefined = options.after
      ? { ...followUpKey(options.after.id), [index.partitionKey]: partition, [index.sortKey]: options.after.sortKey }
      : undefined;
    // Expired or filtered steps take room in a page: read on, a bounded number of pages, until the page is full.
    for (let round = 0; round < 10 && steps.length < options.limit; round++) {
      const page = await db.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: index.name,
          KeyConditionExpression: '#pk = :pk',
          FilterExpression: filter,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          Limit: options.limit - steps.length,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      steps.push(...(page.Items ?? []).map(parseStoredStep));
      startKey = page.LastEvaluatedKey;
      if (!startKey) break;
    }
    return { steps, ...(startKey ? { next: cursorOf(index, startKey) } : {}) };
  };

  return {
    async get(id) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: followUpKey(id), ConsistentRead: true }));
      return Item ? parseStoredStep(Item) : undefined;
    },

    listForLead: (owner, options) => listIn(LEAD_INDEX, leadPartition(owner), options),

    listForSite: (owner, options) => listIn(SITE_INDEX, sitePartition(owner), options),

    listDue: (before, limit) => indexIds(SCHEDULED_PARTITION, before, limit),

    async markDue(id, at) {
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: followUpKey(id),
            UpdateExpression: 'SET #status = :due, due_at = :at, updated_at = :at, #gpk = :announcing, #gsk = :sk',
            // A held step (its sequence paused) is never made due, even when the index was read before the pause.
            ConditionExpression: '#status = :scheduled AND scheduled_for <= :at AND attribute_not_exists(paused_at)',
            ExpressionAttributeNames: { '#status': 'status', '#gpk': DUE_INDEX.partitionKey, '#gsk': DUE_INDEX.sortKey },
            ExpressionAttributeValues: {
              ':due': 'due',
              ':scheduled': 'scheduled',
              ':at': at,
              ':announcing': ANNOUNCING_PARTITION,
              ':sk': `${at}#${id}`,
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return Attributes ? parseStoredStep(Attributes) : undefined;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return undefined;
        throw error;
      }
    },

    listAnnouncing: (before, limit) => indexIds(ANNOUNCING_PARTITION, before, limit),

    async markAnnounced(id, at) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: followUpKey(id),
            UpdateExpression: 'SET announced_at = :at REMOVE #gpk, #gsk',
            ConditionExpression: '#gpk = :announcing',
            ExpressionAttributeNames: { '#gpk': DUE_INDEX.partitionKey, '#gsk': DUE_INDEX.sortKey },
            ExpressionAttributeValues: { ':at': at, ':announcing': ANNOUNCING_PARTITION },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },

    async change(id, change, expected) {
      const update = changeExpression(id, change, expected);
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({ TableName: tableName, Key: followUpKey(id), ...update, ReturnValues: 'ALL_NEW' }),
        );
        return Attributes ? parseStoredStep(Attributes) : undefined;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return undefined;
        throw error;
      }
    },

    async hold(id, pause) {
      return conditional(() =>
        db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: followUpKey(id),
            UpdateExpression: 'SET paused_at = :paused, updated_at = :at REMOVE #gpk',
            ConditionExpression: 'tenant_id = :tenant AND #status = :scheduled AND attribute_not_exists(paused_at)',
            ExpressionAttributeNames: { '#status': 'status', '#gpk': DUE_INDEX.partitionKey },
            ExpressionAttributeValues: { ':paused': pause.pausedAt, ':at': pause.at, ':tenant': pause.tenantId, ':scheduled': 'scheduled' },
          }),
        ),
      );
    },

    async release(id, resume) {
      return conditional(() =>
        db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: followUpKey(id),
            UpdateExpression:
              'SET scheduled_for = :when, #gpk = :scheduledPartition, #gsk = :dueKey, #lsk = :leadKey, #ssk = :leadKey, ' +
              '#expires = :expires, updated_at = :at ' +
              'REMOVE paused_at',
            ConditionExpression: 'tenant_id = :tenant AND #status = :scheduled AND paused_at = :paused',
            ExpressionAttributeNames: {
              '#status': 'status',
              '#gpk': DUE_INDEX.partitionKey,
              '#gsk': DUE_INDEX.sortKey,
              '#lsk': LEAD_INDEX.sortKey,
              // The site's listing orders by the same key as the lead's.
              '#ssk': SITE_INDEX.sortKey,
              '#expires': TABLE.ttlAttribute,
            },
            ExpressionAttributeValues: {
              ':when': resume.scheduledFor,
              ':scheduledPartition': SCHEDULED_PARTITION,
              ':dueKey': `${resume.scheduledFor}#${id}`,
              ':leadKey': leadSortKey({ id, scheduled_for: resume.scheduledFor }),
              ':expires': resume.expiresAt,
              ':at': resume.at,
              ':tenant': resume.tenantId,
              ':scheduled': 'scheduled',
              ':paused': resume.pausedAt,
            },
          }),
        ),
      );
    },

    async eraseForCommand(commandId, tenantId) {
      const erased: string[] = [];
      // A sequence's ids derive from its command and their positions: no index is needed to find them.
      for (let position = 1; position <= MAX_SEQUENCE; position++) {
        const id = followUpId(commandId, position);
        try {
          const { Attributes } = await db.send(
            new DeleteCommand({
              TableName: tableName,
              Key: followUpKey(id),
              ConditionExpression: 'tenant_id = :tenant AND command_id = :command',
              ExpressionAttributeValues: { ':tenant': tenantId, ':command': commandId },
              ReturnValues: 'ALL_OLD',
            }),
          );
          if (Attributes) erased.push(id);
        } catch (error) {
          if (!isConditionalCheckFailed(error)) throw error;
        }
      }
      return erased;
    },
  };
}

/** Runs a conditional write: true when it was made, false when its condition failed. */
async function conditional(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** The cursor of a page's last evaluated key (the index's sort key and the step's id). */
function cursorOf(index: ListingIndex, key: Record<string, unknown>): StepCursor {
  return { sortKey: String(key[index.sortKey]), id: String(key[TABLE.partitionKey]).slice('FOLLOWUP#'.length) };
}

type UpdateParts = {
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
};

/** The one conditional UpdateItem of a change: what it sets, what it removes, what it expects. */
function changeExpression(id: string, change: StepChange, expected: StepExpectation): UpdateParts {
  const names: Record<string, string> = { '#status': 'status', '#tenant': 'tenant_id' };
  const values: Record<string, unknown> = { ':tenant': expected.tenantId, ':at': change.at };
  const sets = ['updated_at = :at'];
  const removes: string[] = [];
  const set = (attribute: string, value: unknown) => {
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    sets.push(`#${attribute} = :${attribute}`);
  };
  if (change.subject !== undefined) set('subject', change.subject);
  if (change.content !== undefined) set('content', change.content);
  if (change.subject !== undefined || change.content !== undefined) sets.push('edited_at = :at');
  const final = change.status !== undefined && FINAL_STEP_STATUSES.includes(change.status);
  if (change.scheduled_for !== undefined) {
    if (final) throw new Error('A step cannot be given a new time and end in the same change');
    set('scheduled_for', change.scheduled_for);
    // A step only gets a new time while scheduled: its due-time and lead index entries move with it.
    set(DUE_INDEX.sortKey, `${change.scheduled_for}#${id}`);
    set(LEAD_INDEX.sortKey, leadSortKey({ id, scheduled_for: change.scheduled_for }));
    set(SITE_INDEX.sortKey, leadSortKey({ id, scheduled_for: change.scheduled_for }));
    if (change.expires_at !== undefined) set(TABLE.ttlAttribute, change.expires_at);
  }
  if (change.previous_scheduled_for !== undefined) set('previous_scheduled_for', change.previous_scheduled_for);
  if (change.adapted_by !== undefined) set('adapted_by', change.adapted_by);
  if (change.status !== undefined) {
    values[':newStatus'] = change.status;
    sets.push('#status = :newStatus', `${change.status}_at = :at`);
    if (change.status_reason !== undefined) set('status_reason', change.status_reason);
    if (final) {
      // A final step leaves the due-time index (scheduled or announcing) for good.
      names['#gpk'] = DUE_INDEX.partitionKey;
      names['#gsk'] = DUE_INDEX.sortKey;
      removes.push('#gpk', '#gsk');
    }
  }
  expected.statuses.forEach((status, index) => (values[`:from${index}`] = status));
  let condition = `attribute_exists(pk) AND #tenant = :tenant AND #status IN (${expected.statuses.map((_, index) => `:from${index}`).join(', ')})`;
  if (expected.scheduledFor !== undefined) {
    names['#scheduled_for'] = 'scheduled_for';
    values[':expectedAt'] = expected.scheduledFor;
    condition += ' AND #scheduled_for = :expectedAt';
  }
  return {
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
