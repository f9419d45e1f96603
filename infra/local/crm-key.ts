import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MIN_SERVICE_KEY_LENGTH } from '../../shared/platform/secret-box';

/** The file in DATA_DIR that keeps the CRM sealing key `npm start` made. */
export const CRM_KEY_FILE = 'crm-key';

/** A new service key: 32 random bytes, base64url (43 characters). */
export function newCrmKey(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The CRM sealing key of `npm start` when CRM_ENCRYPTION_KEY is not set:
 * with DATA_DIR, the one kept in DATA_DIR/crm-key (readable by its owner
 * only), made on the first start, so connections kept in DATA_DIR still
 * open after a restart; without it (data in memory, gone at exit), a new one
 * per start.
 */
export async function localCrmKey(dataDir: string | undefined): Promise<string> {
  if (!dataDir) return newCrmKey();
  const file = join(dataDir, CRM_KEY_FILE);
  const existing = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    },
  );
  if (existing && existing.length >= MIN_SERVICE_KEY_LENGTH) {
    await chmod(file, 0o600);
    return existing;
  }
  const key = newCrmKey();
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return key;
}
