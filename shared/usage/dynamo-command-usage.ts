import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sendTransaction } from '../platform/dynamodb';
import { usageItems } from './dynamo-ledger';
import { usageTargetOfCommand } from './dynamo-usage-targets';
import type { UsageTarget } from './meter';
import { isEmptyUsage, type UsageCounters } from './usage';

/**
 * Port: adds usage made outside any job to a command and its tenant's
 * totals, for work that runs once and has no write of its own to ride on
 * (a live call's turn, answered over a socket that is never redelivered).
 * `fallback` names the command when it has no usage labels yet.
 */
export type CommandUsageRecorder = (fallback: UsageTarget, usage: UsageCounters, now: number) => Promise<void>;

/** CommandUsageRecorder on the single table: one TransactWriteItems of the ledger's items (after reading the command's labels). */
export function dynamoCommandUsageRecorder(db: DynamoDBDocumentClient, tableName: string): CommandUsageRecorder {
  return async (fallback, usage, now) => {
    if (isEmptyUsage(usage)) return;
    const target = (await usageTargetOfCommand(db, tableName, fallback.commandId)) ?? fallback;
    if (target.tenantId !== fallback.tenantId) return;
    await sendTransaction(db, usageItems(tableName, { target, usage, at: now }));
  };
}
