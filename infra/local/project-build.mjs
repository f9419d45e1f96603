/**
 * The one build of this project that `npm start` (infra/local/start.mjs) and
 * the operations tools (infra/cli/run.mjs) run from: the local runtime, every
 * function entry it composes, and every tool package.json's scripts run
 * through infra/cli/run.mjs, made together (local-build.mjs), so a fresh
 * clone or a change builds once for all of them.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildCacheDir } from './local-build.mjs';

/** The local runtime's entry. */
export const LOCAL_RUNTIME = 'infra/local/main.ts';

/**
 * The build's options, to run `main` (the runtime, or one of the tools) from it.
 * @param {string} root The repository.
 * @param {string} main The entry to run, relative to `root`.
 * @returns {import('./local-build.mjs').LocalBuildOptions}
 */
export function projectBuildOptions(root, main) {
  return {
    root,
    cacheDir: buildCacheDir(root, 'local'),
    main,
    mains: [LOCAL_RUNTIME, ...scriptedTools(root)],
    functionsDir: 'functions',
    functionModules: 'infra/local/function-modules.ts',
    // The embedded servers' thread starts from its own built entry, not from source through tsx (embedded-servers-in-thread.ts).
    builtEntries: { SWITCHBOARD_SERVERS_THREAD: 'infra/local/embedded-servers-thread.ts' },
  };
}

/**
 * The tools package.json's scripts run through infra/cli/run.mjs (`node infra/cli/run.mjs` and the path of a tool).
 * @param {string} root
 */
function scriptedTools(root) {
  const { scripts } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
  const runner = /^node infra\/cli\/run\.mjs (\S+\.ts)\b/;
  return Object.values(scripts ?? {}).flatMap((script) => runner.exec(String(script))?.slice(1) ?? []);
}
