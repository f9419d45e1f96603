import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateQueueCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The floor: a bare Node HTTP server that does the least an accept path
 * must (one PutItem, one SendMessage) against the same embedded services.
 */
export async function startFloorServer(db: DynamoDBDocumentClient, sqs: SQSClient, tableName: string): Promise<{ url: string; close(): Promise<void> }> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'bench-floor' }));
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const id = randomUUID();
      const body = Buffer.concat(chunks).toString('utf8');
      await db.send(new PutCommand({ TableName: tableName, Item: { pk: `FLOOR#${id}`, sk: 'FLOOR', body }, ConditionExpression: 'attribute_not_exists(pk)' }));
      await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: body }));
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, data: { command_id: id, status: 'in_progress' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
