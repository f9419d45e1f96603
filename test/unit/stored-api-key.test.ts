import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { storedApiKey } from '../../infra/local/stored-api-key';
import { tempDir } from '../support/temp-dir';

describe('storedApiKey', () => {
  it('makes a key on the first start, keeps it readable by its owner only, and returns it on the next', async () => {
    const dir = tempDir('key');
    const first = await storedApiKey(dir);
    expect(first).toMatchObject({ key: expect.stringMatching(/^sbk_/), file: join(dir, 'api-key'), created: true });
    expect((await stat(first.file)).mode & 0o777).toBe(0o600);
    expect((await readFile(first.file, 'utf8')).trim()).toBe(first.key);

    const second = await storedApiKey(dir);
    expect(second).toEqual({ ...first, created: false });
  });

  it('closes up a kept key file others could read', async () => {
    const dir = tempDir('key');
    await writeFile(join(dir, 'api-key'), 'sbk_kept-by-hand-0123456789\n');
    await chmod(join(dir, 'api-key'), 0o644);
    expect(await storedApiKey(dir)).toMatchObject({ key: 'sbk_kept-by-hand-0123456789', created: false });
    expect((await stat(join(dir, 'api-key'))).mode & 0o777).toBe(0o600);
  });
});
