import { join } from 'node:path';
import { generateApiKey } from '../../shared/access/api-keys';
import { keptSecret } from './kept-secret';

/** The file in DATA_DIR that keeps the key `npm start` made. */
export const API_KEY_FILE = 'api-key';

/**
 * The key of `npm start` when API_KEY is not set and DATA_DIR is: the one
 * kept in DATA_DIR/api-key (readable by its owner only), made and kept on
 * the first start, so a restart does not mint another key that never expires.
 */
export async function storedApiKey(dataDir: string): Promise<{ key: string; file: string; created: boolean }> {
  const file = join(dataDir, API_KEY_FILE);
  const { value, created } = await keptSecret(file, { make: generateApiKey, usable: (kept) => kept.length >= 16 });
  return { key: value, file, created };
}
