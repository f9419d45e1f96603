/**
 * `npm start`: runs the local runtime (infra/local/main.ts) from its build,
 * made first when the sources changed since the last one (local-build.mjs).
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildCacheDir, ensureLocalBuild } from './local-build.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { mainFile } = await ensureLocalBuild({
  onBuild: () => process.stdout.write('Building the local runtime (first start, or its sources changed)…\n'),
  root,
  cacheDir: buildCacheDir(root, 'local'),
  main: 'infra/local/main.ts',
  functionsDir: 'functions',
  functionModules: 'infra/local/function-modules.ts',
});
process.setSourceMapsEnabled(true);
await import(pathToFileURL(mainFile).href);
