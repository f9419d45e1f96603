import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { absolutePath, generatedFiles, staleFiles } from '../api-docs/generate';

/**
 * `npm run docs`: writes docs/openapi.json (the OpenAPI 3.1 reference, from
 * the catalogue's routes and each feature's `openapi.ts`) and
 * docs/switchboard-api.d.ts (its types, for openapi-fetch).
 * `npm run docs -- --check`: writes nothing; exits 1 when either is out of date.
 */
const check = process.argv.includes('--check');
const files = await generatedFiles();
if (check) {
  const stale = await staleFiles(files);
  if (stale.length > 0) {
    process.stderr.write(`Out of date: ${stale.join(', ')}. Run npm run docs and commit the result.\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`Up to date: ${files.map((file) => file.path).join(', ')}\n`);
  }
} else {
  for (const file of files) {
    await mkdir(dirname(absolutePath(file)), { recursive: true });
    await writeFile(absolutePath(file), file.content);
    process.stdout.write(`Wrote ${file.path}\n`);
  }
}
