import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { CapacityMeter, itemSize, keyOf, type WireItem } from '../../bench/capacity';

/** The table as the embedded server holds it, by `pk|sk`; `reading` may hold read backs until it settles. */
class FakeTable {
  readonly items = new Map<string, WireItem>();
  reading: Promise<void> = Promise.resolve();
  readBacks = 0;

  /** An item of `key` whose billed size is `bytes`. */
  set(key: WireItem, bytes: number): void {
    const item: WireItem = { ...key, pad: { S: '' } };
    item.pad = { S: 'x'.repeat(bytes - itemSize(item)) };
    this.items.set(keyOf(key), item);
  }

  readItem = async (key: WireItem): Promise<WireItem | undefined> => {
    this.readBacks += 1;
    await this.reading;
    return this.items.get(keyOf(key));
  };
}

/**
 * A call the meter sees as the embedded server does: its body read by someone else, after the meter looked, then done
 * by the service (`apply`, a change to the table) and answered with `status` (200 by default). Resolves once the
 * answer has left (the meter may hold it back).
 */
async function send(
  meter: CapacityMeter,
  table: FakeTable,
  operation: string,
  body: unknown,
  apply = () => {},
  status = 200,
): Promise<void> {
  const stream = Object.assign(new PassThrough(), { headers: {} });
  let left: () => void = () => {};
  const answered = new Promise<void>((resolve) => (left = resolve));
  const response = { statusCode: status, end: () => left() };
  meter.observe('dynamodb', operation, stream as unknown as IncomingMessage, {
    response: response as unknown as ServerResponse,
    readItem: table.readItem,
  });
  stream.end(JSON.stringify(body));
  stream.resume();
  await new Promise((resolve) => stream.once('end', resolve));
  apply();
  response.end();
  await answered;
}

const key = { pk: { S: 'CMD#1' }, sk: { S: 'CMD' } };

describe('the cost bench capacity meter', () => {
  it('sizes an item off the wire as DynamoDB bills it', () => {
    expect(itemSize({ pk: { S: 'abc' }, n: { N: '12345' }, ok: { BOOL: true }, list: { L: [{ S: 'ab' }] } })).toBe(
      2 + 3 + (1 + 4) + (2 + 1) + (4 + 3 + 1 + 2),
    );
  });

  it('bills a write at the larger of its item before and after (twice in a transaction, one more per index), reads per 4 KiB', async () => {
    const table = new FakeTable();
    const meter = new CapacityMeter();
    const put = { Item: { ...key, text: { S: 'x'.repeat(1500) } } };
    await send(meter, table, 'PutItem', put, () => table.set(key, 1534));
    // Grows to 5,000 bytes: billed at the size after.
    await send(meter, table, 'UpdateItem', { Key: key, UpdateExpression: 'SET #s = :s' }, () => table.set(key, 5000));
    // Shrinks to 900 bytes in a transaction that also leaves an index: billed at the size before; the check of a missing item at 1.
    await send(
      meter,
      table,
      'TransactWriteItems',
      {
        TransactItems: [
          { Update: { Key: key, UpdateExpression: 'REMOVE gsi1pk, gsi1sk' } },
          { ConditionCheck: { Key: { pk: { S: 'CMD#2' }, sk: { S: 'CMD' } } } },
        ],
      },
      () => table.set(key, 900),
    );
    // A write whose condition failed changes nothing and is billed at the item as it is (900 bytes), with no read back.
    const readBacks = table.readBacks;
    await send(meter, table, 'UpdateItem', { Key: key, UpdateExpression: 'SET #s = :s' }, () => {}, 400);
    expect(table.readBacks).toBe(readBacks);
    await send(meter, table, 'GetItem', { Key: key, ConsistentRead: true });
    await send(meter, table, 'GetItem', { Key: { pk: { S: 'CMD#3' }, sk: { S: 'CMD' } } });
    await send(meter, table, 'Query', {});
    await send(meter, table, 'DeleteItem', { Key: key }, () => table.items.delete(keyOf(key)));
    const units = await meter.units();
    // Put 2 (1,534 bytes), Update 5, transaction 2 × 5 + 1 and 2 × 1, failed Update 1, Delete 1 (900 bytes).
    expect(units.writeUnits).toBe(2 + 5 + (2 * 5 + 1) + 2 * 1 + 1 + 1);
    // A strongly consistent read of 900 bytes 1, an eventually consistent read of nothing 0.5, a Query 0.5.
    expect(units.readUnits).toBe(1 + 0.5 + 0.5);
    expect(units.writeUnitsByKind.get('CMD#')).toBe(units.writeUnits);
    expect(meter.raced.size).toBe(0);
  });

  it('holds each answer until its items are sized, and tells when another caller wrote the same item meanwhile', async () => {
    const table = new FakeTable();
    let release: () => void = () => {};
    table.reading = new Promise<void>((resolve) => (release = resolve));
    const meter = new CapacityMeter();
    let firstAnswered = false;
    // One caller's update, its read back slow: its answer waits for it.
    const first = send(meter, table, 'UpdateItem', { Key: key, UpdateExpression: 'SET a = :a' }, () => table.set(key, 2000)).then(
      () => (firstAnswered = true),
    );
    while (table.readBacks === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(firstAnswered).toBe(false);
    // Another caller's update of the same item comes in meanwhile, and is done before the first read back.
    let applied: () => void = () => {};
    const secondApplied = new Promise<void>((resolve) => (applied = resolve));
    const second = send(meter, table, 'UpdateItem', { Key: key, UpdateExpression: 'SET b = :b' }, () => {
      table.set(key, 100);
      applied();
    });
    await secondApplied;
    release();
    await Promise.all([first, second]);
    const units = await meter.units();
    expect([...meter.raced]).toEqual([['CMD#', 1]]);
    // Both read back 100 bytes: the first billed at 1 (it never saw the 2,000), the second at 1.
    expect(units.writeUnits).toBe(2);
  });
});
