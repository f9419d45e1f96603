import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the test environment (test/support/node-environment.mjs) finds the folders to remove when the file ends. */
const TEMP_DIRS = '__switchboardTempDirs';

/**
 * A new folder `switchboard-<name>-XXXXXX` under the temp folder, removed
 * with everything in it when the test file ends, after its own `afterAll`
 * hooks (so a runtime still holding files in it has stopped).
 */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `switchboard-${name}-`));
  const registry = globalThis as unknown as Record<typeof TEMP_DIRS, string[] | undefined>;
  if (!registry[TEMP_DIRS]) throw new Error('tempDir needs the test environment of jest.config.js (test/support/node-environment.mjs)');
  registry[TEMP_DIRS].push(dir);
  return dir;
}
