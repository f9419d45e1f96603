import { cachedEndpointLists, endpointsChanged, ENDPOINT_LIST_TTL_MS } from '../../../shared/webhooks/endpoint-cache';
import type { WebhookEndpoint } from '../../../shared/webhooks/endpoint-store';

const endpoint = (id: string): WebhookEndpoint => ({
  id,
  tenant_id: 'acme',
  url: 'https://hooks.example.com/switchboard',
  events: ['*'],
  secret: 'whsec_x',
  created_at: '2026-11-27T00:00:00.000Z',
  updated_at: '2026-11-27T00:00:00.000Z',
});

/** A store whose lists are counted, answering what `answers` holds for the tenant now (or failing once when told). */
function countingStore() {
  const state = { reads: 0, failNext: false, answers: new Map<string, WebhookEndpoint[]>() };
  return {
    state,
    store: {
      list: async (tenantId: string) => {
        state.reads += 1;
        if (state.failNext) {
          state.failNext = false;
          throw new Error('DynamoDB is unavailable');
        }
        return state.answers.get(tenantId) ?? [];
      },
    },
  };
}

describe('cached endpoint lists', () => {
  it("reads a tenant's list once per TTL, each tenant apart", async () => {
    const { state, store } = countingStore();
    let now = 1_000;
    const cached = cachedEndpointLists(store, { now: () => now });
    await cached.list('acme');
    state.answers.set('acme', [endpoint('ep_1')]);
    now += ENDPOINT_LIST_TTL_MS - 1;
    expect(await cached.list('acme')).toEqual([]);
    expect(await cached.list('globex')).toEqual([]);
    expect(state.reads).toBe(2);
    now += 1;
    expect(await cached.list('acme')).toEqual([endpoint('ep_1')]);
    expect(state.reads).toBe(3);
  });

  it('reads again at once after a change to any endpoint in this process', async () => {
    const { state, store } = countingStore();
    const cached = cachedEndpointLists(store, { now: () => 0 });
    expect(await cached.list('acme')).toEqual([]);
    state.answers.set('acme', [endpoint('ep_2')]);
    endpointsChanged();
    expect(await cached.list('acme')).toEqual([endpoint('ep_2')]);
    expect(await cached.list('acme')).toEqual([endpoint('ep_2')]);
    expect(state.reads).toBe(2);
  });

  it('keeps no failed read', async () => {
    const { state, store } = countingStore();
    const cached = cachedEndpointLists(store, { now: () => 0 });
    state.failNext = true;
    await expect(cached.list('acme')).rejects.toThrow('DynamoDB is unavailable');
    expect(await cached.list('acme')).toEqual([]);
    expect(state.reads).toBe(2);
  });
});
