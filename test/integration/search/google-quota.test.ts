import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoGoogleQuota, googleQuotaKey } from '../../../shared/providers/search/quota';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

let services: EmbeddedServices;
beforeAll(async () => {
  services = await startEmbeddedServices();
});
afterAll(() => services.stop());

/** A settable clock; each test starts on its own day so counters never meet. */
function clockAt(iso: string) {
  const clock = { ms: Date.parse(iso), now: () => clock.ms, set: (to: string) => (clock.ms = Date.parse(to)) };
  return clock;
}

const counter = async (day: string) =>
  (await services.db.send(new GetCommand({ TableName: services.aws.tableName, Key: googleQuotaKey(day) }))).Item;

describe('dynamoGoogleQuota', () => {
  it('reserves up to the daily limit and refuses a reservation that would pass it, taking nothing', async () => {
    const clock = clockAt('2025-01-10T18:00:00Z');
    const quota = dynamoGoogleQuota(services.db, services.aws.tableName, 10, clock.now);
    expect(await quota.reserve(3)).toBe(true);
    expect(await quota.reserve(6)).toBe(true);
    expect(await quota.reserve(2)).toBe(false);
    expect((await counter('2025-01-10'))?.count).toBe(9);
    expect(await quota.reserve(1)).toBe(true);
    expect(await quota.reserve(1)).toBe(false);
    expect((await counter('2025-01-10'))?.count).toBe(10);
  });

  it('refuses more than the whole limit at once, and a zero reservation costs nothing', async () => {
    const clock = clockAt('2025-01-11T18:00:00Z');
    const quota = dynamoGoogleQuota(services.db, services.aws.tableName, 5, clock.now);
    expect(await quota.reserve(6)).toBe(false);
    expect(await quota.reserve(0)).toBe(true);
    expect(await counter('2025-01-11')).toBeUndefined();
  });

  it('never lets concurrent workers overspend: 25 parallel reservations against a limit of 10', async () => {
    const clock = clockAt('2025-01-12T18:00:00Z');
    const workers = Array.from({ length: 5 }, () => dynamoGoogleQuota(services.db, services.aws.tableName, 10, clock.now));
    const granted = await Promise.all(Array.from({ length: 25 }, (_, index) => workers[index % 5]!.reserve(1)));
    expect(granted.filter(Boolean)).toHaveLength(10);
    expect((await counter('2025-01-12'))?.count).toBe(10);
  });

  it('keeps its counter for a couple of days (TTL attribute expires_at, epoch seconds)', async () => {
    const clock = clockAt('2025-01-13T18:00:00Z');
    await dynamoGoogleQuota(services.db, services.aws.tableName, 10, clock.now).reserve(1);
    const item = await counter('2025-01-13');
    expect(item).toMatchObject({ pk: 'QUOTA#google#2025-01-13', count: 1 });
    expect(item?.expires_at).toBe(Date.parse('2025-01-15T18:00:00Z') / 1000);
  });

  it('once exhausted refuses every reservation until Pacific midnight (PST, UTC-8), then starts afresh', async () => {
    const clock = clockAt('2025-01-20T07:59:00Z'); // 23:59 PST on the 19th
    const quota = dynamoGoogleQuota(services.db, services.aws.tableName, 100, clock.now);
    expect(await quota.reserve(2)).toBe(true);
    await quota.exhaust();
    expect(await counter('2025-01-19')).toMatchObject({ count: 100, exhausted: true });
    expect(await quota.reserve(1)).toBe(false);
    clock.set('2025-01-20T07:59:59.999Z');
    expect(await quota.reserve(1)).toBe(false);
    clock.set('2025-01-20T08:00:00Z'); // 00:00 PST on the 20th
    expect(await quota.reserve(10)).toBe(true);
    expect((await counter('2025-01-20'))?.count).toBe(10);
  });

  it('resets at midnight Pacific Daylight Time (UTC-7) in summer, not at UTC midnight', async () => {
    const clock = clockAt('2025-07-20T06:30:00Z'); // 23:30 PDT on the 19th
    const quota = dynamoGoogleQuota(services.db, services.aws.tableName, 3, clock.now);
    expect(await quota.reserve(3)).toBe(true);
    clock.set('2025-07-20T00:30:00Z'); // UTC midnight passed earlier: still the 19th in Pacific
    expect(await quota.reserve(1)).toBe(false);
    clock.set('2025-07-20T06:59:59Z');
    expect(await quota.reserve(1)).toBe(false);
    clock.set('2025-07-20T07:00:00Z');
    expect(await quota.reserve(3)).toBe(true);
  });

  it('takes back unsent reservations, on the day they were made', async () => {
    const clock = clockAt('2025-02-01T07:50:00Z'); // 23:50 PST on Jan 31
    const quota = dynamoGoogleQuota(services.db, services.aws.tableName, 10, clock.now);
    expect(await quota.reserve(3)).toBe(true);
    clock.set('2025-02-01T08:10:00Z'); // past Pacific midnight: Feb 1
    expect(await quota.reserve(4)).toBe(true);
    await quota.release!(2);
    expect((await counter('2025-02-01'))?.count).toBe(2);
    await quota.release!(3);
    expect((await counter('2025-01-31'))?.count).toBe(0);
    await quota.release!(5); // more than this instance holds: nothing is given back
    expect((await counter('2025-02-01'))?.count).toBe(2);
  });

  it('does not reopen an exhausted day when reservations are given back', async () => {
    const clock = clockAt('2025-02-03T18:00:00Z');
    const quota = dynamoGoogleQuota(services.db, services.aws.tableName, 10, clock.now);
    expect(await quota.reserve(3)).toBe(true);
    await quota.exhaust();
    await quota.release!(3);
    expect(await counter('2025-02-03')).toMatchObject({ count: 10, exhausted: true });
    expect(await quota.reserve(1)).toBe(false);
  });

  it('exhausting twice is harmless', async () => {
    const clock = clockAt('2025-02-04T18:00:00Z');
    const quota = dynamoGoogleQuota(services.db, services.aws.tableName, 10, clock.now);
    await quota.exhaust();
    await quota.exhaust();
    expect(await counter('2025-02-04')).toMatchObject({ count: 10, exhausted: true });
  });
});
