import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoRequestRateStore } from '../../../shared/access/limits/dynamo-request-rate';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

let services: EmbeddedServices;
beforeAll(async () => {
  services = await startEmbeddedServices();
});
afterAll(async () => {
  await services.stop();
});

const bucketOf = async (tenantId: string) =>
  (await services.db.send(new GetCommand({ TableName: services.aws.tableName, Key: { pk: `RATE#${tenantId}`, sk: 'BUCKET' } }))).Item;

describe('the request-rate bucket in the table', () => {
  it('allows a burst, refuses the next without writing, and refills with time', async () => {
    const store = dynamoRequestRateStore(services.db, services.aws.tableName);
    const rate = { perSecond: 2, burst: 3 };
    const at = 1_800_000_000_000;
    const taken = [];
    for (let index = 0; index < 5; index++) taken.push(await store.take('acme', rate, at));
    expect(taken.map((decision) => decision.allowed)).toEqual([true, true, true, false, false]);
    expect(taken.map((decision) => decision.remaining)).toEqual([2, 1, 0, 0, 0]);
    expect(taken[3]).toMatchObject({ resetMs: 500 });
    expect((await bucketOf('acme'))?.tat).toBe(at + 1500);

    expect((await store.take('acme', rate, at + 500)).allowed).toBe(true);
    expect((await store.take('acme', rate, at + 500)).allowed).toBe(false);
    // Idle long enough: a full burst again.
    const later = [];
    for (let index = 0; index < 4; index++) later.push((await store.take('acme', rate, at + 10_000)).allowed);
    expect(later).toEqual([true, true, true, false]);
  });

  it('is one bucket for every instance: two stores together allow one burst, not two', async () => {
    const one = dynamoRequestRateStore(services.db, services.aws.tableName);
    const two = dynamoRequestRateStore(services.db, services.aws.tableName);
    const rate = { perSecond: 1, burst: 4 };
    const at = 1_800_000_100_000;
    const decisions = await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 ? one : two).take('globex', rate, at)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(4);
    // Each instance's memory of the bucket is stale now; the next take still counts right.
    expect((await one.take('globex', rate, at + 1000)).allowed).toBe(true);
    expect((await two.take('globex', rate, at + 1000)).allowed).toBe(false);
  });

  it('keeps tenants apart', async () => {
    const store = dynamoRequestRateStore(services.db, services.aws.tableName);
    const rate = { perSecond: 1, burst: 1 };
    const at = 1_800_000_200_000;
    expect((await store.take('initech', rate, at)).allowed).toBe(true);
    expect((await store.take('initech', rate, at)).allowed).toBe(false);
    expect((await store.take('hooli', rate, at)).allowed).toBe(true);
  });
});
