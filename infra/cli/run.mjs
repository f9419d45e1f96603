/**
 * `npm run keys|usage|preflight|…`: runs a command-line tool, a TypeScript
 * file under infra/cli/, from a build (infra/local/local-build.mjs, as
 * `npm start` runs from one), made first when its sources changed. The
 * tools the package's scripts run this way share one build, so a fresh
 * clone builds once for all of them.
 * Through tsx each start loaded every module through tsx's loader thread
 * (2 to 3 s before the tool did anything); from the build it is a fraction
 * of that. The tool sees the arguments after its file, and its own path as
 * `process.argv[1]`, as when run directly.
 *
 *   node infra/cli/run.mjs infra/cli/keys.ts create --sites …
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildCacheDir, ensureLocalBuild } from '../local/local-build.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const [entry, ...args] = process.argv.slice(2);
if (!entry?.endsWith('.ts')) {
  process.stderr.write('usage: node infra/cli/run.mjs infra/cli/TOOL.ts [arguments]\n');
  process.exit(2);
}
const source = resolve(root, entry);
const main = relative(root, source);
const { mainFile } = await ensureLocalBuild({ root, cacheDir: buildCacheDir(root, 'cli'), main, mains: scriptedTools() });
process.argv = [process.argv[0], source, ...args];
process.setSourceMapsEnabled(true);
await import(pathToFileURL(mainFile).href);

/** The tools package.json's scripts run through this file (`node infra/cli/run.mjs` and the path of a tool). */
function scriptedTools() {
  const { scripts } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
  const runner = /^node infra\/cli\/run\.mjs (\S+\.ts)\b/;
  return Object.values(scripts ?? {}).flatMap((script) => runner.exec(script)?.slice(1) ?? []);
}
