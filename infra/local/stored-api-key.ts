import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateApiKey } from '../../shared/access/api-keys';

/** The file in DATA_DIR that keeps the key `npm start` made. */
export const API_KEY_FILE = 'api-key';

/**
 * The key of `npm start` when API_KEY is not set and DATA_DIR is: the one
 * kept in DATA_DIR/api-key (readable by its owner only), made and kept on
 * the first start, so a restart does not mint another key that never expires.
 */
export async function storedApiKey(dataDir: string): Promise<{ key: string; file: string; created: boolean }> {
  const file = join(dataDir, API_KEY_FILE);
  const existing = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    },
  );
  if (existing && existing.length >= 16) {
    await chmod(file, 0o600);
    return { key: existing, file, created: false };
  }
  const key = generateApiKey();
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { key, file, created: true };
}
