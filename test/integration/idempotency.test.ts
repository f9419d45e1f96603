import { dynamoIdempotencyStore, IDEMPOTENCY_WINDOW_MS, type IdempotencyStore } from '../../shared/commands/idempotency';
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
});
