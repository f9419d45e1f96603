import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { startEmbeddedAws, type EmbeddedAws } from '../../infra/local/embedded-aws';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { eventually } from '../support/eventually';
import { tempDir } from '../support/temp-dir';

/**
 * The embedded servers on a worker thread of their own (`npm start`):
 * the same table and queues over the same wire, news of arrivals carried
 * over to this thread's pollers, data kept in DATA_DIR across a restart,
 * and a failed start told as an error.
 */
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const clientOf = (aws: EmbeddedAws) => createDocumentClient({ endpoint: aws.dynamodbEndpoint, region: aws.region, credentials });

describe('the embedded servers on a thread of their own', () => {
  it('serve the table and the queues, tell this thread of arrivals by queue, and keep DATA_DIR across a restart', async () => {
    const dataDir = tempDir('thread');
    const first = await startEmbeddedAws({ dataDir, thread: true });
    const db = clientOf(first);
    try {
      const item = { pk: 'THREAD#1', sk: 'ITEM', note: 'kept' };
      await db.send(new PutCommand({ TableName: first.tableName, Item: item }));
      expect((await db.send(new GetCommand({ TableName: first.tableName, Key: { pk: 'THREAD#1', sk: 'ITEM' } }))).Item).toEqual(item);

      const woken: string[] = [];
      // A queue is known by its name, whichever host reaches it.
      first.activity(first.queues.sales.url.replace('127.0.0.1', 'localhost'), () => woken.push('sales'));
      first.activity(first.queues.copywriter.url, () => woken.push('copywriter'));
      await first.sqs.send(new SendMessageCommand({ QueueUrl: first.queues.sales.url, MessageBody: 'for sales' }));
      await eventually(async () => (woken.length > 0 ? true : undefined), 5_000, 'news of the send');
      expect(woken).toEqual(['sales']);
      const { Messages } = await first.sqs.send(new ReceiveMessageCommand({ QueueUrl: first.queues.sales.url, WaitTimeSeconds: 0 }));
      expect(Messages?.map((message) => message.Body)).toEqual(['for sales']);
      await first.sqs.send(new DeleteMessageCommand({ QueueUrl: first.queues.sales.url, ReceiptHandle: Messages![0]!.ReceiptHandle }));
    } finally {
      db.destroy();
      // A stop asked twice stops once.
      await Promise.all([first.stop(), first.stop()]);
    }

    const second = await startEmbeddedAws({ dataDir, thread: true });
    const again = clientOf(second);
    try {
      const { Item } = await again.send(new GetCommand({ TableName: second.tableName, Key: { pk: 'THREAD#1', sk: 'ITEM' } }));
      expect(Item).toMatchObject({ note: 'kept' });
    } finally {
      again.destroy();
      await second.stop();
    }
  });

  it('refuses a request observer, which only sees servers on its own thread', async () => {
    await expect(startEmbeddedAws({ thread: true, onRequest: () => undefined })).rejects.toThrow(/onRequest .* not with thread: true/);
  });

  it('rejects a start the thread cannot make (its data folder is a file), and this thread goes on', async () => {
    const notAFolder = join(tempDir('thread-bad'), 'data');
    await writeFile(notAFolder, 'a file where the data folder should be');
    await expect(startEmbeddedAws({ dataDir: notAFolder, thread: true })).rejects.toThrow();
  });
});
