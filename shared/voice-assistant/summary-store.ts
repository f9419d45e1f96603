import { TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { MeetingSummaryRecord } from '../calls/record';
import { commandKey } from '../commands/store';
import type { TransactionItem } from '../platform/dynamodb';
import { cancellationReasons, isConditionalCheckFailed } from '../platform/dynamodb-errors';

/** A finished summary, as the post-call phase writes it. */
export type WrittenSummary = Required<
  Pick<MeetingSummaryRecord, 'key_points' | 'decisions' | 'action_items' | 'requirements' | 'objective_outcome' | 'generated_by' | 'model'>
> &
  Pick<MeetingSummaryRecord, 'reason'>;

/**
 * Port: the `meeting_summary` of a stakeholder command. Each write is one
 * conditional update of the command item, false when its condition did not
 * hold (having changed nothing): the summary is requested once (pending or
 * skipped, never both, never twice), and completed once, by the command
 * that was named when it was requested.
 */
export interface MeetingSummaryStore {
  /**
   * Marks the summary queued for `childId` and lists the child among the
   * command's `child_ids`; only when none was requested before. With
   * `transcriptOpenUntil` (epoch ms) the transcript still takes a turn's
   * write until then (`transcript_open_until`, in the same write).
   */
  markPending(commandId: string, childId: string, now: number, transcriptOpenUntil?: number): Promise<boolean>;
  /**
   * Marks that there will be no summary (every list empty), with the
   * reason: as the call ends, only when none was requested before; by
   * `byChild`, only while the summary is pending for that child.
   */
  markSkipped(commandId: string, reason: string, now: number, byChild?: string): Promise<boolean>;
  /** Stores the summary written by `childId`; only while it is pending for that child. `also` (its event) commits with it or not at all. */
  markWritten(
    commandId: string,
    childId: string,
    summary: WrittenSummary,
    now: number,
    also?: readonly TransactionItem[],
  ): Promise<boolean>;
}

/** The command's attribute that keeps the transcript open after the summary's request (CallCommandFields). */
export const OPEN_UNTIL = 'transcript_open_until';

/** MeetingSummaryStore on the command items of the single table. */
export function dynamoMeetingSummaryStore(db: DynamoDBDocumentClient, tableName: string): MeetingSummaryStore {
  const update = async (
    input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>,
    also: readonly TransactionItem[] = [],
  ): Promise<boolean> => {
    try {
      if (also.length === 0) await db.send(new UpdateCommand({ TableName: tableName, ...input }));
      else
        await db.send(
          new TransactWriteCommand({
            TransactItems: [{ Update: { TableName: tableName, ...input } as NonNullable<TransactionItem['Update']> }, ...also],
          }),
        );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error) || cancellationReasons(error)?.[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  };
  const iso = (ms: number) => new Date(ms).toISOString();

  return {
    markPending(commandId, childId, now, transcriptOpenUntil) {
      const summary: MeetingSummaryRecord = { status: 'pending', command_id: childId, requested_at: iso(now) };
      const open = transcriptOpenUntil !== undefined;
      return update({
        Key: commandKey(commandId),
        UpdateExpression: `SET #summary = :summary, #children = list_append(if_not_exists(#children, :none), :child)${open ? ', #open = :open' : ''}`,
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#summary)',
        ExpressionAttributeNames: { '#summary': 'meeting_summary', '#children': 'child_ids', ...(open ? { '#open': OPEN_UNTIL } : {}) },
        ExpressionAttributeValues: {
          ':summary': summary,
          ':none': [],
          ':child': [childId],
          ...(open ? { ':open': transcriptOpenUntil } : {}),
        },
      });
    },

    markSkipped(commandId, reason, now, byChild) {
      if (byChild !== undefined)
        return update({
          Key: commandKey(commandId),
          UpdateExpression:
            'SET #summary.#status = :skipped, #summary.reason = :reason, #summary.key_points = :empty, #summary.decisions = :empty, ' +
            '#summary.action_items = :empty, #summary.requirements = :empty',
          ConditionExpression: 'attribute_exists(pk) AND #summary.#status = :pending AND #summary.command_id = :child',
          ExpressionAttributeNames: { '#summary': 'meeting_summary', '#status': 'status' },
          ExpressionAttributeValues: {
            ':skipped': 'skipped',
            ':pending': 'pending',
            ':child': byChild,
            ':reason': reason,
            ':empty': [],
          },
        });
      const summary: MeetingSummaryRecord = {
        status: 'skipped',
        requested_at: iso(now),
        reason,
        key_points: [],
        decisions: [],
        action_items: [],
        requirements: [],
      };
      return update({
        Key: commandKey(commandId),
        UpdateExpression: 'SET #summary = :summary',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#summary)',
        ExpressionAttributeNames: { '#summary': 'meeting_summary' },
        ExpressionAttributeValues: { ':summary': summary },
      });
    },

    markWritten(commandId, childId, summary, now, also = []) {
      return update(
        {
          Key: commandKey(commandId),
          UpdateExpression:
            'SET #summary.#status = :completed, #summary.key_points = :key_points, #summary.decisions = :decisions, #summary.action_items = :action_items, ' +
            '#summary.requirements = :requirements, #summary.objective_outcome = :outcome, #summary.generated_by = :generated_by, #summary.#model = :model, ' +
            `#summary.created_at = :now${summary.reason === undefined ? '' : ', #summary.reason = :reason'}`,
          ConditionExpression: 'attribute_exists(pk) AND #summary.#status = :pending AND #summary.command_id = :child',
          ExpressionAttributeNames: { '#summary': 'meeting_summary', '#status': 'status', '#model': 'model' },
          ExpressionAttributeValues: {
            ':completed': 'completed',
            ':pending': 'pending',
            ':child': childId,
            ':key_points': summary.key_points,
            ':decisions': summary.decisions,
            ':action_items': summary.action_items,
            ':requirements': summary.requirements,
            ':outcome': summary.objective_outcome,
            ':generated_by': summary.generated_by,
            ':model': summary.model,
            ':now': iso(now),
            ...(summary.reason === undefined ? {} : { ':reason': summary.reason }),
          },
        },
        also,
      );
    },
  };
}
