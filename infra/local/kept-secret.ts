import { chmod, readFile, writeFile } from 'node:fs/promises';

/**
 * A secret `npm start` keeps in a file of DATA_DIR between runs (readable
 * by its owner only): the one the file holds when it is `usable`, else a
 * new one from `make`, written there. A kept file others could read is
 * closed up.
 */
export async function keptSecret(
  file: string,
  options: { make: () => string; usable: (kept: string) => boolean },
): Promise<{ value: string; created: boolean }> {
  const existing = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    },
  );
  if (existing && options.usable(existing)) {
    await chmod(file, 0o600);
    return { value: existing, created: false };
  }
  const value = options.make();
  await writeFile(file, `${value}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { value, created: true };
}
