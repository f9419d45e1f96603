import { deferredCrmProvider } from '../../../shared/providers/crm/deferred';
import type { CrmClient, CrmProvider } from '../../../shared/providers/crm/port';

/** A provider whose clients answer verify() with the token they were connected with. */
const fakeProvider: CrmProvider = {
  name: 'hubspot',
  connect: (credentials) =>
    ({
      provider: 'hubspot',
      verify: async () => ({ accountId: credentials.accessToken }),
      setLeadStatus: async () => undefined,
    }) as unknown as CrmClient,
};

describe('a deferred CRM provider', () => {
  it('loads its adapter on the first call of a client, once, and never for a client that makes none', async () => {
    let loads = 0;
    const provider = deferredCrmProvider('hubspot', async () => {
      loads += 1;
      return fakeProvider;
    });
    const idle = provider.connect({ accessToken: 'unused' });
    expect(idle.provider).toBe('hubspot');
    expect(loads).toBe(0);

    const client = provider.connect({ accessToken: 'pat-1' });
    await expect(client.verify()).resolves.toEqual({ accountId: 'pat-1' });
    await expect(client.setLeadStatus('42', 'OPEN')).resolves.toBeUndefined();
    await expect(provider.connect({ accessToken: 'pat-2' }).verify()).resolves.toEqual({ accountId: 'pat-2' });
    expect(loads).toBe(1);
  });

  it('tries the load again after one that failed', async () => {
    let loads = 0;
    const provider = deferredCrmProvider('hubspot', async () => {
      loads += 1;
      if (loads === 1) throw new Error('module not found');
      return fakeProvider;
    });
    await expect(provider.connect({ accessToken: 'pat-1' }).verify()).rejects.toThrow('module not found');
    await expect(provider.connect({ accessToken: 'pat-1' }).verify()).resolves.toEqual({ accountId: 'pat-1' });
    expect(loads).toBe(2);
  });
});
