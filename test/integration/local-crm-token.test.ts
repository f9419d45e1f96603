import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LOCAL_CRM_TOKEN_FILE, startLocalCrm } from '../../infra/local/local-crm';
import { startLocalRuntime } from '../../infra/local/runtime';
import { hubspotCrm } from '../../shared/providers/crm/hubspot';
import { tempDir } from '../support/temp-dir';

/**
 * The local CRM's token: new at each start in memory; with DATA_DIR kept
 * there, so a connection kept in DATA_DIR still opens after a restart.
 */
describe('the local CRM token', () => {
  it('is new at each start without DATA_DIR', async () => {
    const [first, second] = await Promise.all([startLocalCrm(), startLocalCrm()]);
    try {
      expect(first.token).toMatch(/^pat-local-[\w-]{36}$/);
      expect(second.token).not.toBe(first.token);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it('is kept in DATA_DIR (owner only) by npm start, and the next start accepts it', async () => {
    const dataDir = tempDir('local-crm');
    const settings = { LOG_LEVEL: 'SILENT', HUBSPOT_API_BASE_URL: undefined };
    const runtime = await startLocalRuntime({ port: 0, workers: false, scheduleEveryMs: 0, dataDir, settings });
    const token = runtime.localCrm!.token;
    await runtime.stop();
    const file = join(dataDir, LOCAL_CRM_TOKEN_FILE);
    expect((await readFile(file, 'utf8')).trim()).toBe(token);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const again = await startLocalCrm({ dataDir });
    try {
      expect(again.token).toBe(token);
      const client = hubspotCrm({ baseUrl: again.baseUrl }).connect({ accessToken: token });
      expect(await client.verify()).toMatchObject({ accountId: String(again.portalId) });
      expect((await client.listContacts()).items.map((contact) => contact.id)).toEqual(['1001', '1004']);
    } finally {
      await again.stop();
    }
  }, 60_000);

  it('replaces a kept file that holds no local CRM token', async () => {
    const dataDir = tempDir('local-crm');
    await writeFile(join(dataDir, LOCAL_CRM_TOKEN_FILE), 'not-a-token\n');
    const crm = await startLocalCrm({ dataDir });
    try {
      expect(crm.token).toMatch(/^pat-local-/);
      expect((await readFile(join(dataDir, LOCAL_CRM_TOKEN_FILE), 'utf8')).trim()).toBe(crm.token);
    } finally {
      await crm.stop();
    }
  });
});
