import { TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CallStatus, RelayGrant } from '../calls/record';
import { commandKey } from '../commands/store';
import type { TransactionItem } from '../platform/dynamodb';
import { cancellationReasons, isConditionalCheckFailed } from '../platform/dynamodb-errors';
import { usageItems } from '../usage/dynamo-ledger';
import { usageTargetAt, usageTargetOfCommand } from '../usage/dynamo-usage-targets';
import type { UsageTarget } from '../usage/meter';
import { callSeconds } from '../usage/usage';

/** What placing the call gave back. */
export interface PlacedCallRecord {
  provider: 'twilio' | 'local';
  providerCallId: string;
  providerStatus: string;
  status: CallStatus;
}

/** One status callback, as the webhook applies it. */
export interface CallStatusUpdate {
  /** The provider call id the callback is about (Twilio's CallSid). */
  providerCallId: string;
  status: CallStatus;
  providerStatus: string;
  sequence: number;
  durationSeconds?: number;
  answeredBy?: string;
  reason?: string;
}

/**
 * Port: the writes of a command's live call (CommandRecord.call). Each is
 * one conditional UpdateItem of the command's item (a transaction when
 * events join it), and
 * returns false when its condition did not hold, having changed nothing.
 * The conditions are what make "never two calls" hold:
 * pending → requested (once) → placed (the provider's id) or failed; a
 * status callback moves only the call it names, only forward in Twilio's
 * sequence, and never out of a final state.
 */
export interface CallStore {
  /**
   * Claims the right to dial: only from `pending`, never requested before. Called before dialling. With `relayTokenHash`, the
   * call's one-time relay URL is granted in the same write (`relay`: the hash of its token, never the token).
   */
  markRequested(
    commandId: string,
    callId: string,
    provider: 'twilio' | 'local',
    now: number,
    relayTokenHash?: string,
  ): Promise<string | false>;
  /** Records the provider's call id: only for the request this worker made (`requestedAt`), and only once. */
  recordPlaced(commandId: string, callId: string, requestedAt: string, placed: PlacedCallRecord, now: number): Promise<boolean>;
  /** Fails a call that was never requested (nothing dialled): e.g. telephony not configured. */
  failUnrequested(commandId: string, callId: string, reason: string, now: number): Promise<boolean>;
  /**
   * Fails a call that was requested but has no provider call id: the
   * provider refused it, or the worker that requested it stopped before the
   * provider answered. Never dialled again.
   */
  failRequested(commandId: string, callId: string, requestedAt: string, reason: string, now: number): Promise<boolean>;
  /**
   * Applies one status callback (see the port's rules), with `also` (the
   * events it announces) in the same transaction. Twilio may call back
   * before the worker has recorded the call's id (the first `initiated`
   * races the create's answer): a requested call without an id yet takes
   * the callback's CallSid, since its command's callback URL was given to
   * Twilio for that one call only. A final callback's duration counts as
   * the command's call seconds in the same write.
   */
  applyStatus(commandId: string, update: CallStatusUpdate, now: number, also?: readonly TransactionItem[]): Promise<boolean>;
}

/** CallStore on the command items of the single DynamoDB table. */
export function dynamoCallStore(db: DynamoDBDocumentClient, tableName: string): CallStore {
  const update = async (
    commandId: string,
    sets: Record<string, unknown>,
    condition: string,
    values: Record<string, unknown>,
    also: readonly TransactionItem[] = [],
    /** Fields of the command item itself, set beside the call's. */
    itemSets: Record<string, unknown> = {},
  ): Promise<boolean> => {
    const names: Record<string, string> = { '#call': 'call', '#id': 'id', '#status': 'status' };
    const expressionValues: Record<string, unknown> = { ...values };
    const assignments: string[] = [];
    for (const [field, value] of Object.entries(sets)) {
      if (value === undefined) continue;
      names[`#f_${field}`] = field;
      expressionValues[`:f_${field}`] = value;
      assignments.push(`#call.#f_${field} = :f_${field}`);
    }
    for (const [field, value] of Object.entries(itemSets)) {
      names[`#i_${field}`] = field;
      expressionValues[`:i_${field}`] = value;
      assignments.push(`#i_${field} = :i_${field}`);
    }
    const updateExpression = `SET ${assignments.join(', ')}`;
    const conditionExpression = `attribute_exists(pk) AND attribute_exists(#call) AND ${condition}`;
    // DynamoDB refuses names and values an expression does not use.
    const used = (token: string) => new RegExp(`${token}\\b`).test(`${updateExpression} ${conditionExpression}`);
    const write = {
      TableName: tableName,
      Key: commandKey(commandId),
      UpdateExpression: updateExpression,
      ConditionExpression: conditionExpression,
      ExpressionAttributeNames: Object.fromEntries(Object.entries(names).filter(([token]) => used(token))),
      ExpressionAttributeValues: Object.fromEntries(Object.entries(expressionValues).filter(([token]) => used(token))),
    };
    try {
      if (also.length === 0) await db.send(new UpdateCommand(write));
      else await db.send(new TransactWriteCommand({ TransactItems: [{ Update: write }, ...also] }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error) || cancellationReasons(error)?.[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  const PENDING = { ':pending': 'pending' };
  /** Whose usage a call's seconds count on: its command's usage labels, else (nothing used yet) the command's own fields. */
  const callUsageTarget = async (commandId: string): Promise<UsageTarget | undefined> =>
    (await usageTargetOfCommand(db, tableName, commandId)) ?? (await usageTargetAt(db, tableName, commandKey(commandId), commandId));

  return {
    async markRequested(commandId, callId, provider, now, relayTokenHash) {
      const requestedAt = iso(now);
      const relay: RelayGrant | undefined = relayTokenHash ? { token_hash: relayTokenHash, issued_at: requestedAt } : undefined;
      const done = await update(
        commandId,
        { requested_at: requestedAt, provider, updated_at: requestedAt },
        '#call.#id = :callId AND #call.#status = :pending AND attribute_not_exists(#call.requested_at)',
        { ':callId': callId, ...PENDING },
        [],
        relay ? { relay } : {},
      );
      return done ? requestedAt : false;
    },

    recordPlaced(commandId, callId, requestedAt, placed, now) {
      return update(
        commandId,
        {
          provider: placed.provider,
          provider_call_id: placed.providerCallId,
          provider_status: placed.providerStatus,
          status: placed.status,
          updated_at: iso(now),
        },
        '#call.#id = :callId AND #call.#status = :pending AND #call.requested_at = :requestedAt AND attribute_not_exists(#call.provider_call_id)',
        { ':callId': callId, ':requestedAt': requestedAt, ...PENDING },
      );
    },

    failUnrequested(commandId, callId, reason, now) {
      return update(
        commandId,
        { status: 'failed', reason, updated_at: iso(now) },
        '#call.#id = :callId AND #call.#status = :pending AND attribute_not_exists(#call.requested_at)',
        { ':callId': callId, ...PENDING },
      );
    },

    failRequested(commandId, callId, requestedAt, reason, now) {
      return update(
        commandId,
        { status: 'failed', reason, updated_at: iso(now) },
        '#call.#id = :callId AND #call.#status = :pending AND #call.requested_at = :requestedAt AND attribute_not_exists(#call.provider_call_id)',
        { ':callId': callId, ':requestedAt': requestedAt, ...PENDING },
      );
    },

    async applyStatus(commandId, status, now, also = []) {
      // A final callback's CallDuration counts on the command's usage with the write that applies it (so once).
      const target = status.durationSeconds ? await callUsageTarget(commandId) : undefined;
      const counted = target ? usageItems(tableName, { target, usage: callSeconds(status.durationSeconds!), at: now }) : [];
      return update(
        commandId,
        {
          provider_call_id: status.providerCallId,
          status: status.status,
          provider_status: status.providerStatus,
          last_sequence: status.sequence,
          duration_seconds: status.durationSeconds,
          answered_by: status.answeredBy,
          reason: status.reason,
          updated_at: iso(now),
        },
        '(#call.provider_call_id = :sid OR (attribute_exists(#call.requested_at) AND attribute_not_exists(#call.provider_call_id))) ' +
          'AND #call.last_sequence < :sequence AND NOT (#call.#status IN (:completed, :failed))',
        { ':sid': status.providerCallId, ':sequence': status.sequence, ':completed': 'completed', ':failed': 'failed' },
        [...also, ...counted],
      );
    },
  };
}
