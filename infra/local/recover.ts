import { ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { QUEUES } from '../definitions';
import { jobFor } from '../../shared/commands/accept';
import { commandKey } from '../../shared/commands/store';
import type { CommandRecord } from '../../shared/commands/record';
import type { JobQueue } from '../../shared/commands/queue';

/**
 * With `DATA_DIR`, commands outlive a restart but the embedded SQS does not:
 * at start, when nothing is running yet, every command still in progress has
 * its lease cleared and its job queued again. Workers ignore jobs of commands
 * that are already finished, so a job queued twice does no harm.
 */
export async function requeueUnfinishedCommands(db: DynamoDBDocumentClient, tableName: string, queue: JobQueue): Promise<number> {
  let requeued = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'begins_with(pk, :prefix) AND #status = :in_progress',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':prefix': 'CMD#', ':in_progress': 'in_progress' },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const command = item as unknown as CommandRecord;
      const home = QUEUES.find((candidate) => candidate.jobTypes.includes(command.type));
      if (!home) continue;
      await db.send(new UpdateCommand({ TableName: tableName, Key: commandKey(command.id), UpdateExpression: 'REMOVE lease_until' }));
      await queue.send(home.id, jobFor(command));
      requeued += 1;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return requeued;
}
