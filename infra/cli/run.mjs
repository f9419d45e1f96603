/**
 * `npm run keys|usage|preflight|…`: runs a command-line tool, a TypeScript
 * file under infra/cli/, from the project's build (infra/local/project-build.mjs:
 * the one `npm start` runs from, which has every tool the package's scripts
 * run this way as an entry), made first when its sources changed.
 * Through tsx each start loaded every module through tsx's loader thread
 * (2 to 3 s before the tool did anything); from the build it is a fraction
 * of that. The tool sees the arguments after its file, and its own path as
 * `process.argv[1]`, as when run directly.
 *
 *   node infra/cli/run.mjs infra/cli/keys.ts create --sites …
 */
import { relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureLocalBuild } from '../local/local-build.mjs';
import { projectBuildOptions } from '../local/project-build.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const [entry, ...args] = process.argv.slice(2);
if (!entry?.endsWith('.ts')) {
  process.stderr.write('usage: node infra/cli/run.mjs infra/cli/TOOL.ts [arguments]\n');
  process.exit(2);
}
const source = resolve(root, entry);
const main = relative(root, source);
const { mainFile } = await ensureLocalBuild(projectBuildOptions(root, main));
process.argv = [process.argv[0], source, ...args];
process.setSourceMapsEnabled(true);
await import(pathToFileURL(mainFile).href);
