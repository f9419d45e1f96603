/**
 * `npm start`: runs the local runtime (infra/local/main.ts) from the
 * project's build (project-build.mjs), made first when the sources changed
 * since the last one (local-build.mjs).
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureLocalBuild } from './local-build.mjs';
import { LOCAL_RUNTIME, projectBuildOptions } from './project-build.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { mainFile } = await ensureLocalBuild({
  ...projectBuildOptions(root, LOCAL_RUNTIME),
  onBuild: () => process.stdout.write('Building the local runtime (first start, or its sources changed)…\n'),
});
process.setSourceMapsEnabled(true);
await import(pathToFileURL(mainFile).href);
