import { PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  dynamoIdempotencyStore,
  IDEMPOTENCY_WINDOW_MS,
  idempotencyRecordKey,
  type IdempotencyStore,
} from '../../shared/commands/idempotency';
import { AppError } from '../../shared/platform/errors';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

let services: EmbeddedServices;
let store: IdempotencyStore;

beforeAll(async () => {
  services = await startEmbeddedServices();
  store = dynamoIdempotencyStore(services.db, services.aws.tableName);
});
afterAll(() => services.stop());

const claim = (overrides: Partial<Parameters<IdempotencyStore['claim']>[0]> = {}) => ({
  tenantId: 'tenant-a',
  scope: 'lead_follow_up',
  key: 'key-1',
  bodyHash: 'hash-1',
  commandId: 'command-1',
  now: Date.parse('2026-11-23T10:00:00Z'),
  ...overrides,
});

describe('dynamoIdempotencyStore', () => {
  it('lets the first request win and replays its command for the same body', async () => {
    expect(await store.claim(claim())).toEqual({ kind: 'first' });
    expect(await store.claim(claim({ commandId: 'command-2' }))).toEqual({ kind: 'replay', commandId: 'command-1' });
  });

  it('refuses the same key with another body with IDEMPOTENCY_CONFLICT', async () => {
    await store.claim(claim({ key: 'key-2' }));
    const attempt = store.claim(claim({ key: 'key-2', bodyHash: 'other', commandId: 'command-3' }));
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(store.claim(claim({ key: 'key-2', bodyHash: 'other' }))).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
  });

  it('scopes keys per tenant: another tenant with the same key gets its own command', async () => {
    await store.claim(claim({ key: 'shared-key' }));
    expect(await store.claim(claim({ key: 'shared-key', tenantId: 'tenant-b', bodyHash: 'x' }))).toEqual({ kind: 'first' });
  });

  it('forgets a key after 24 hours', async () => {
    const start = Date.parse('2026-11-23T10:00:00Z');
    await store.claim(claim({ key: 'old-key', now: start }));
    const later = start + IDEMPOTENCY_WINDOW_MS + 2_000;
    expect(await store.claim(claim({ key: 'old-key', bodyHash: 'new', commandId: 'command-9', now: later }))).toEqual({ kind: 'first' });
  });

  it("never replays another tenant's command, whatever the key says (the probe: acme + 'x#lead_follow_up#k')", async () => {
    const victim = claim({ tenantId: 'acme#lead_follow_up#x', key: 'k', bodyHash: 'same-body', commandId: 'victim-command' });
    expect(await store.claim(victim)).toEqual({ kind: 'first' });
    const probe = claim({ tenantId: 'acme', key: 'x#lead_follow_up#k', bodyHash: 'same-body', commandId: 'probe-command' });
    expect(await store.claim(probe)).toEqual({ kind: 'first' });
    expect(await store.claim({ ...probe, commandId: 'probe-again' })).toEqual({ kind: 'replay', commandId: 'probe-command' });
    expect(await store.claim({ ...victim, commandId: 'victim-again' })).toEqual({ kind: 'replay', commandId: 'victim-command' });
  });

  it('keeps scopes apart however the key and scope split around #', async () => {
    expect(await store.claim(claim({ scope: 'lead_follow_up', key: 'a#b', commandId: 'scope-1' }))).toEqual({ kind: 'first' });
    expect(await store.claim(claim({ scope: 'lead_follow_up#a', key: 'b', commandId: 'scope-2' }))).toEqual({ kind: 'first' });
  });

  it('treats a record naming another tenant or scope, or none, as a conflict and never returns its command', async () => {
    const mine = { tenantId: 'acme', scope: 'lead_follow_up', key: 'planted' };
    for (const [index, foreign] of [
      { tenant_id: 'mallory', scope: mine.scope },
      { tenant_id: mine.tenantId, scope: 'deep_research' },
      {},
    ].entries()) {
      const key = `${mine.key}-${index}`;
      await services.db.send(
        new PutCommand({
          TableName: services.aws.tableName,
          Item: {
            ...idempotencyRecordKey({ ...mine, key }),
            ...foreign,
            body_hash: 'hash-1',
            command_id: 'foreign-command',
            expires_at: 4_102_444_800,
          },
        }),
      );
      await expect(store.claim(claim({ ...mine, key }))).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    }
  });
});
