import { rm } from 'node:fs/promises';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, ScanCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TRANSACTION_JOURNAL_TABLE } from '../../infra/local/dynalite-transactions';
import { startEmbeddedAws } from '../../infra/local/embedded-aws';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';
import { tempDir } from '../support/temp-dir';

/**
 * In memory (no journal: prior images come back from the writes), under DATA_DIR (journaled first), and with the servers on
 * a thread of their own, as `npm start` runs them: the same behaviour.
 */
describe.each([
  ['in memory', false, false],
  ['kept in DATA_DIR', true, false],
  ['kept in DATA_DIR, on a thread of its own', true, true],
])('TransactWriteItems on the embedded DynamoDB, %s', (_mode, kept, thread) => {
  let services: EmbeddedServices;
  let table: string;
  let dataDir: string | undefined;
  const key = (id: string) => ({ pk: `TX#${id}`, sk: 'ITEM' });
  const read = async (id: string) =>
    (await services.db.send(new GetCommand({ TableName: table, Key: key(id), ConsistentRead: true }))).Item;
  const cancellation = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TransactionCanceledException);
    return (error as TransactionCanceledException).CancellationReasons?.map((reason) => reason.Code);
  };

  beforeAll(async () => {
    dataDir = kept ? tempDir('tx-kept') : undefined;
    services = await startEmbeddedServices({ ...(dataDir ? { dataDir } : {}), thread });
    table = services.aws.tableName;
  });
  afterAll(async () => {
    await services.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('applies every item when every condition holds', async () => {
    await services.db.send(new PutCommand({ TableName: table, Item: { ...key('a1'), n: 1 } }));
    await services.db.send(new PutCommand({ TableName: table, Item: { ...key('a0'), kept: true } }));
    await services.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table,
              Key: key('a1'),
              UpdateExpression: 'SET n = n + :one',
              ConditionExpression: 'n = :one',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
          { Put: { TableName: table, Item: { ...key('a2'), made: true }, ConditionExpression: 'attribute_not_exists(pk)' } },
          { ConditionCheck: { TableName: table, Key: key('a0'), ConditionExpression: 'attribute_exists(pk)' } },
        ],
      }),
    );
    expect(await read('a1')).toMatchObject({ n: 2 });
    expect(await read('a2')).toMatchObject({ made: true });
    expect(await read('a0')).toEqual({ ...key('a0'), kept: true });
  });

  it('applies nothing when one condition fails, and names the reason of each item in order', async () => {
    await services.db.send(new PutCommand({ TableName: table, Item: { ...key('b1'), n: 1 } }));
    await services.db.send(new PutCommand({ TableName: table, Item: { ...key('b3'), n: 7 } }));
    const reasons = await cancellation(
      services.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: { TableName: table, Key: key('b1'), UpdateExpression: 'SET n = :five', ExpressionAttributeValues: { ':five': 5 } } },
            { Put: { TableName: table, Item: { ...key('b2'), made: true } } },
            { Delete: { TableName: table, Key: key('b3'), ConditionExpression: 'n = :zero', ExpressionAttributeValues: { ':zero': 0 } } },
          ],
        }),
      ),
    );
    expect(reasons).toEqual(['None', 'None', 'ConditionalCheckFailed']);
    expect(await read('b1')).toMatchObject({ n: 1 });
    expect(await read('b2')).toBeUndefined();
    expect(await read('b3')).toMatchObject({ n: 7 });
  });

  it('cancels on a failed condition check of a missing item and leaves no trace of it', async () => {
    const reasons = await cancellation(
      services.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { ConditionCheck: { TableName: table, Key: key('c0'), ConditionExpression: 'attribute_exists(pk)' } },
            { Put: { TableName: table, Item: { ...key('c1'), made: true } } },
          ],
        }),
      ),
    );
    expect(reasons).toEqual(['ConditionalCheckFailed', 'None']);
    expect(await read('c0')).toBeUndefined();
    expect(await read('c1')).toBeUndefined();
  });

  it('passes a condition check of a missing item without writing it, and names every refused item', async () => {
    await services.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { ConditionCheck: { TableName: table, Key: key('h0'), ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: table, Item: { ...key('h1'), made: true } } },
        ],
      }),
    );
    expect(await read('h0')).toBeUndefined();
    expect(await read('h1')).toMatchObject({ made: true });

    await services.db.send(new PutCommand({ TableName: table, Item: { ...key('h2'), n: 3 } }));
    const error = await services.db
      .send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: table, Item: { ...key('h1'), made: false }, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Put: { TableName: table, Item: { ...key('h3'), made: true } } },
            {
              Update: {
                TableName: table,
                Key: key('h2'),
                UpdateExpression: 'SET n = :zero',
                ConditionExpression: 'n = :zero',
                ExpressionAttributeValues: { ':zero': 0 },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
          ],
        }),
      )
      .then(
        () => undefined,
        (caught: unknown) => caught as TransactionCanceledException,
      );
    expect(error?.CancellationReasons?.map((reason) => reason.Code)).toEqual(['ConditionalCheckFailed', 'None', 'ConditionalCheckFailed']);
    expect(error?.CancellationReasons?.[2]?.Item).toMatchObject({ n: { N: '3' } });
    expect(await read('h1')).toMatchObject({ made: true });
    expect(await read('h3')).toBeUndefined();
    expect(await read('h2')).toMatchObject({ n: 3 });
  });

  it('refuses an item over 400 KB with a ValidationError reason and keeps the others unapplied', async () => {
    const reasons = await cancellation(
      services.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: table, Item: { ...key('d1'), made: true } } },
            { Put: { TableName: table, Item: { ...key('d2'), big: 'x'.repeat(410 * 1024) } } },
          ],
        }),
      ),
    );
    expect(reasons).toEqual(['None', 'ValidationError']);
    expect(await read('d1')).toBeUndefined();
  });

  it('refuses two operations on one item', async () => {
    await expect(
      services.db.send(
        new TransactWriteCommand({
          TransactItems: [{ Put: { TableName: table, Item: { ...key('e1') } } }, { Delete: { TableName: table, Key: key('e1') } }],
        }),
      ),
    ).rejects.toMatchObject({ name: 'ValidationException' });
  });

  it('is atomic against concurrent transactions and single writes', async () => {
    await services.db.send(new PutCommand({ TableName: table, Item: { ...key('f1'), n: 100 } }));
    await services.db.send(new PutCommand({ TableName: table, Item: { ...key('f2'), n: 0 } }));
    const move = () =>
      services.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: table,
                Key: key('f1'),
                UpdateExpression: 'SET n = n - :one',
                ConditionExpression: 'n > :zero',
                ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
              },
            },
            {
              Update: { TableName: table, Key: key('f2'), UpdateExpression: 'SET n = n + :one', ExpressionAttributeValues: { ':one': 1 } },
            },
          ],
        }),
      );
    const bump = () =>
      services.db.send(
        new UpdateCommand({
          TableName: table,
          Key: key('f2'),
          UpdateExpression: 'SET n = n + :one',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      );
    await Promise.all([...Array.from({ length: 40 }, move), ...Array.from({ length: 10 }, bump)]);
    expect(await read('f1')).toMatchObject({ n: 60 });
    expect(await read('f2')).toMatchObject({ n: 50 });
  });
});

describe('the transaction journal of the embedded DynamoDB', () => {
  const key = (id: string) => ({ pk: `TX#${id}`, sk: 'ITEM' });

  it('rolls back, at the next start, a transaction its process died in the middle of (DATA_DIR)', async () => {
    const dataDir = tempDir('tx');
    try {
      const first = await startEmbeddedAws({ dataDir });
      const db = createDocumentClient({ endpoint: first.dynamodbEndpoint, region: first.region });
      await db.send(new PutCommand({ TableName: first.tableName, Item: { ...key('g1'), n: 1 } }));
      // What a process killed after the journal and the first item leaves behind: the journal, and half the writes.
      const wire = (id: string, extra: Record<string, unknown> = {}) => ({ pk: { S: `TX#${id}` }, sk: { S: 'ITEM' }, ...extra });
      const priors = [
        { table: first.tableName, key: wire('g1'), prior: wire('g1', { n: { N: '1' } }) },
        { table: first.tableName, key: wire('g2') },
      ];
      await db.send(new PutCommand({ TableName: TRANSACTION_JOURNAL_TABLE, Item: { id: 'tx-1', priors: JSON.stringify(priors) } }));
      await db.send(new PutCommand({ TableName: first.tableName, Item: { ...key('g1'), n: 2 } }));
      await db.send(new PutCommand({ TableName: first.tableName, Item: { ...key('g2'), made: true } }));
      db.destroy();
      await first.stop();

      const second = await startEmbeddedAws({ dataDir });
      const again = createDocumentClient({ endpoint: second.dynamodbEndpoint, region: second.region });
      const get = async (id: string) =>
        (await again.send(new GetCommand({ TableName: second.tableName, Key: key(id), ConsistentRead: true }))).Item;
      expect(await get('g1')).toMatchObject({ n: 1 });
      expect(await get('g2')).toBeUndefined();
      expect((await again.send(new ScanCommand({ TableName: TRANSACTION_JOURNAL_TABLE }))).Items).toEqual([]);
      again.destroy();
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
