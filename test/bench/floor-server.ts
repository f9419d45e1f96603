import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateQueueCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StoredCommand } from '../../shared/commands/record';
import { jobFor } from '../../shared/commands/start';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { commandKey } from '../../shared/commands/store';
import { historyPartition } from '../../shared/lead-follow-up/history';
import { newId } from '../../shared/platform/ids';
import { itemKey } from '../../shared/sites/dynamo-directory';

/** A running floor server: one path per floor. */
export interface FloorServer {
  /** PutItem + SendMessage: the least any accept path does. */
  putSendUrl: string;
  /**
   * GetItem of the lead beside a Query of the tenant's state of it, then PutItem + SendMessage: the storage work of the lead
   * follow-up accept path.
   */
  getPutSendUrl: string;
  /**
   * Diagnostic: the same four calls with the service's payloads: a command
   * record with its in-progress index keys, and the job envelope. What the
   * accept path costs beyond this is its code, not its data.
   */
  sameItemsUrl: string;
  /**
   * Diagnostic: as `sameItemsUrl`, the command record written without its
   * index entries. Against `sameItemsUrl`: what the embedded DynamoDB takes
   * to write the entries inside the PutItem; against the same-work floor:
   * what the larger items take.
   */
  sameItemsUnindexedUrl: string;
  close(): Promise<void>;
}

/**
 * The floors: a bare Node HTTP server that does only the storage calls an
 * accept path must make, against the same embedded services. `/put-send`
 * writes and queues; `/get-put-send` first reads a real lead item exactly as
 * the site directory does (same key, eventually consistent, as
 * `dynamoSiteDirectory.getItem` reads it), beside the Query of one key the
 * tenant's state of the lead is read with (shared/lead-follow-up/lead-state.ts),
 * and answers 404 if the lead is absent.
 */
export async function startFloorServer(
  db: DynamoDBDocumentClient,
  sqs: SQSClient,
  tableName: string,
  lead: { siteId: string; leadId: string },
): Promise<FloorServer> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'bench-floor' }));
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    const answer = async (): Promise<void> => {
      const id = randomUUID();
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/same-items' || req.url === '/same-items-unindexed') {
        const indexed = req.url === '/same-items';
        await sameItems({ db, sqs, tableName, queueUrl: QueueUrl!, lead, indexed }, JSON.parse(body) as Record<string, unknown>);
        res.writeHead(202, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: true, data: { command_id: id, status: 'in_progress' } }));
        return;
      }
      if (req.url === '/get-put-send') {
        const [{ Item }] = await Promise.all([
          db.send(new GetCommand({ TableName: tableName, Key: itemKey(lead.siteId, 'leads', lead.leadId) })),
          readLeadState(db, tableName, lead),
        ]);
        if (!Item) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end('{"success":false}');
          return;
        }
      }
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { pk: `FLOOR#${id}`, sk: 'FLOOR', body },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: body }));
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, data: { command_id: id, status: 'in_progress' } }));
    };
    req.on('end', () => {
      // A failed write answers 500: left unhandled it would crash the bench and leave the request hanging.
      answer().catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"success":false}');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    putSendUrl: `${base}/put-send`,
    getPutSendUrl: `${base}/get-put-send`,
    sameItemsUrl: `${base}/same-items`,
    sameItemsUnindexedUrl: `${base}/same-items-unindexed`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Where the diagnostic floors write: the accept path's own storage, with the command's index entries or without. */
interface SameItemsTarget {
  db: DynamoDBDocumentClient;
  sqs: SQSClient;
  tableName: string;
  queueUrl: string;
  lead: { siteId: string; leadId: string };
  indexed: boolean;
}

async function sameItems(
  { db, sqs, tableName, queueUrl, lead, indexed }: SameItemsTarget,
  request: Record<string, unknown>,
): Promise<void> {
  await Promise.all([
    db.send(new GetCommand({ TableName: tableName, Key: itemKey(lead.siteId, 'leads', lead.leadId) })),
    readLeadState(db, tableName, lead),
  ]);
  const id = newId();
  const now = new Date().toISOString();
  const command: StoredCommand = {
    id,
    type: 'lead_follow_up',
    status: 'in_progress',
    tenant_id: 'local',
    site_id: lead.siteId,
    request: { ...request, output: 'channel_messages' },
    created_at: now,
    updated_at: now,
    attempts: 0,
  };
  if (indexed) await dynamoCommandStore(db, tableName).create(command);
  else {
    // The PutItem the store makes for a tenant without limits, less the two index entries.
    const Item = { ...commandKey(id), ...command };
    await db.send(new PutCommand({ TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' }));
  }
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(jobFor(command)) }));
}

/** The read of the tenant's state of the lead as the accept path makes it: a Query of its one key. */
function readLeadState(db: DynamoDBDocumentClient, tableName: string, lead: { siteId: string; leadId: string }) {
  return db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: '#pk = :pk AND #sk = :sk',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': historyPartition(lead.siteId, lead.leadId), ':sk': '~STATE#local' },
    }),
  );
}
