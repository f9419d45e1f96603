import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { CapacityMeter, itemSize } from '../../bench/capacity';

/** A request the meter sees as the embedded server does: its body read by someone else, after the meter looked. */
function send(meter: CapacityMeter, operation: string, body: unknown): void {
  const stream = Object.assign(new PassThrough(), { headers: {} });
  meter.observe('dynamodb', operation, stream as unknown as IncomingMessage);
  stream.end(JSON.stringify(body));
  stream.resume();
}

const key = { pk: { S: 'CMD#1' }, sk: { S: 'CMD' } };

describe('the cost bench capacity meter', () => {
  it('sizes an item off the wire as DynamoDB bills it', () => {
    expect(itemSize({ pk: { S: 'abc' }, n: { N: '12345' }, ok: { BOOL: true }, list: { L: [{ S: 'ab' }] } })).toBe(
      2 + 3 + (1 + 4) + (2 + 1) + (4 + 3 + 1 + 2),
    );
  });

  it('bills writes per KiB (twice in a transaction, one more per index reached) and reads per 4 KiB (half when eventual)', async () => {
    const meter = new CapacityMeter();
    send(meter, 'PutItem', { Item: { ...key, text: { S: 'x'.repeat(1500) } } });
    send(meter, 'UpdateItem', { Key: key, UpdateExpression: 'SET #s = :s' });
    send(meter, 'TransactWriteItems', {
      TransactItems: [
        { Update: { Key: key, UpdateExpression: 'REMOVE gsi1pk, gsi1sk' } },
        { ConditionCheck: { Key: { pk: { S: 'CMD#2' }, sk: { S: 'CMD' } } } },
      ],
    });
    send(meter, 'GetItem', { Key: key, ConsistentRead: true });
    send(meter, 'GetItem', { Key: key });
    send(meter, 'Query', {});
    const finalSizes = new Map([['CMD#1|CMD', 5000]]);
    const units = await meter.units((at) => finalSizes.get(at));
    // Put: 2 (1.5 KiB); Update: 5 (its item's 5,000 bytes); transaction: 2 × 5 + index 1, and 2 × 1 for the check of a missing item.
    expect(units.writeUnits).toBe(2 + 5 + (2 * 5 + 1) + 2 * 1);
    // Strongly consistent 2 (5,000 bytes), eventually consistent 1, a Query 0.5.
    expect(units.readUnits).toBe(2 + 1 + 0.5);
    expect(units.writeUnitsByKind.get('CMD#')).toBe(units.writeUnits);
    // At first-written sizes the updates bill 2 each, not 5.
    const first = await meter.firstWrittenSizes();
    expect((await meter.units((at) => first.get(at))).writeUnits).toBe(2 + 2 + (2 * 2 + 1) + 2 * 1);
  });
});
