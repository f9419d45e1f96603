import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CRM_KEY_FILE, localCrmKey } from '../../../infra/local/crm-key';
import { tempDir } from '../../support/temp-dir';

describe('localCrmKey', () => {
  it('makes a key on the first start with DATA_DIR, keeps it readable by its owner only, and returns it on the next', async () => {
    const dir = tempDir('crm-key');
    const first = await localCrmKey(dir);
    expect(first).toMatch(/^[\w-]{43}$/);
    const file = join(dir, CRM_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
    expect(await localCrmKey(dir)).toBe(first);
  });

  it('makes a new key per start without DATA_DIR, and replaces a kept key too short to seal with', async () => {
    expect(await localCrmKey(undefined)).not.toBe(await localCrmKey(undefined));
    const dir = tempDir('crm-key');
    await writeFile(join(dir, CRM_KEY_FILE), 'short\n');
    await chmod(join(dir, CRM_KEY_FILE), 0o644);
    const key = await localCrmKey(dir);
    expect(key).toHaveLength(43);
    expect((await stat(join(dir, CRM_KEY_FILE))).mode & 0o777).toBe(0o600);
  });
});
