// @ts-check
/**
 * The build `npm start` runs (infra/local/start.mjs): the local runtime and
 * the function entries it composes, bundled by esbuild with the packages
 * they use, kept on disk and made again only when something it was made
 * from changed.
 *
 * Why: run through tsx, each of the thousands of modules the runtime loads
 * went through tsx's loader thread, 6 s of CPU and over 4 s before the
 * banner at every start; the build starts in about 2 s (docs/toolchain.md
 * "What `npm start` runs").
 *
 * - A build is fresh while every file it was made from has the size and
 *   modification time it had, the function entries (the TypeScript files
 *   under `functions/`) are the same files, and esbuild and this file are
 *   unchanged.
 * - Each build is written to a directory of its own and then named current
 *   (a file written whole, then renamed), so starts at the same moment never
 *   run half a build; the one before is kept for a runtime still running
 *   from it (it imports some chunks later).
 * - `import.meta.url`, `.dirname` and `.filename` are each source file's own,
 *   so files found next to a source (demo data, the search corpus, the page
 *   parser's worker) are found there.
 * - The packages with native code or their own loaders stay in node_modules
 *   (`EXTERNAL`). Stack traces name the TypeScript sources (source maps).
 * - One build at a time (a lock directory): a start that finds another
 *   building waits for it and uses its build.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, version as esbuildVersion } from 'esbuild';

/**
 * Packages left to Node: the embedded servers (native LevelDB under
 * dynalite), tsx (the page parser's worker), esbuild, and the CDK, whose
 * thousands of modules Node loads only as they are used (bundled, every
 * tool that reads the environments' settings parsed all of them).
 */
export const EXTERNAL = [
  'dynalite',
  'local-aws-sqs',
  'tsx',
  'esbuild',
  'aws-cdk-lib',
  'aws-cdk-lib/*',
  'constructs',
  'cdk-nag',
  '@aws-cdk/*',
];
/**
 * Where the builds named `name` are kept: under node_modules/.cache, which a
 * clean install empties and git ignores.
 * @param {string} root @param {string} name
 */
export function buildCacheDir(root, name) {
  return join(root, 'node_modules', '.cache', 'switchboard', name);
}

/** Builds kept besides the current one (a runtime started from it may still import chunks). */
const KEEP = 1;
const SELF = fileURLToPath(import.meta.url);
/** CommonJS packages bundled into ESM still call `require`. */
const REQUIRE_BANNER =
  "import { createRequire as __switchboardRequire } from 'node:module'; const require = __switchboardRequire(import.meta.url);";

/**
 * @typedef {object} LocalBuildOptions
 * @property {string} root The repository (or a project laid out like it).
 * @property {string} cacheDir Where builds are kept.
 * @property {string} main The entry, relative to `root`.
 * @property {string[]} [mains] Entries built beside `main` in the same build, relative to `root`, so one build serves each of
 *   them (npm start's runtime and the command-line tools share one); `main` is built whether or not it is listed.
 * @property {string} [functionsDir] Where the function entries are, relative to `root` (a build without entries when absent).
 * @property {string} [functionModules] The module that imports a function entry by name (replaced in the build), relative to `root`.
 * @property {Record<string, string>} [builtEntries] Entries built beside the others whose built file the build's code may
 *   start (a worker thread's script): each constant's name → its entry, relative to `root`. The name is a global constant in
 *   the build (esbuild's `define`), the built file's absolute path; run from source, `typeof NAME` is `'undefined'`.
 * @property {() => void} [onBuild] Called when a build is about to be made.
 */

/**
 * @typedef {object} BuildRecord
 * @property {string} dir
 * @property {string} esbuild
 * @property {string} builder
 * @property {string[]} entries
 * @property {string[]} mains
 * @property {Record<string, string>} [builtEntries]
 * @property {Record<string, string>} inputs
 */

/**
 * The current build's entry file, built first if there is none or it is stale.
 * @param {LocalBuildOptions} options
 * @returns {Promise<{ mainFile: string, built: boolean }>}
 */
export async function ensureLocalBuild(options) {
  const entries = functionEntries(options);
  const fresh = freshBuild(entries, options);
  if (fresh) return { mainFile: mainFileOf(fresh, options), built: false };
  // One build at a time: a start that finds another building waits for it, then uses its build if that is fresh.
  const release = await buildLock(options.cacheDir);
  try {
    const madeMeanwhile = freshBuild(entries, options);
    if (madeMeanwhile) return { mainFile: mainFileOf(madeMeanwhile, options), built: false };
    options.onBuild?.();
    return { mainFile: mainFileOf(await rebuild(entries, options), options), built: true };
  } finally {
    release();
  }
}

/** @param {string[]} entries @param {LocalBuildOptions} options */
function freshBuild(entries, options) {
  const current = readCurrent(options.cacheDir);
  return current && isFresh(current, entries, options) ? current : undefined;
}

/** How long a lock may be held before it is taken as left by a process that died while building. */
const LOCK_STALE_MS = 120_000;

/**
 * Takes the build lock (a directory, made atomically), waiting while
 * another process holds it; returns its release.
 * @param {string} cacheDir
 * @returns {Promise<() => void>}
 */
async function buildLock(cacheDir) {
  mkdirSync(cacheDir, { recursive: true });
  const lock = join(cacheDir, 'building.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
    }
    const held = statSync(lock, { throwIfNoEntry: false });
    if (held && Date.now() - held.mtimeMs > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
    else await delay(100);
  }
}

/** @param {BuildRecord} record @param {LocalBuildOptions} options */
function mainFileOf(record, options) {
  return join(options.cacheDir, record.dir, options.main.replace(/\.ts$/, '.js'));
}

/** What the build has as entry points: `main`, `mains` and the built entries, once each, sorted. @param {LocalBuildOptions} options */
function mainsOf(options) {
  return [...new Set([options.main, ...(options.mains ?? []), ...Object.values(options.builtEntries ?? {})])].sort();
}

/**
 * The global constants naming the built entries' files in a build written to `outdir`.
 * @param {LocalBuildOptions} options @param {string} outdir
 */
function builtEntryDefines(options, outdir) {
  return Object.fromEntries(
    Object.entries(options.builtEntries ?? {}).map(([name, entry]) => [name, JSON.stringify(join(outdir, entry.replace(/\.ts$/, '.js')))]),
  );
}

/** Every function entry: the TypeScript files under `functionsDir`, relative to the root. @param {LocalBuildOptions} options */
function functionEntries(options) {
  if (!options.functionsDir) return [];
  /** @param {string} dir @returns {string[]} */
  const walk = (dir) =>
    readdirSync(join(options.root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
    });
  return walk(options.functionsDir).sort();
}

/** @param {string} cacheDir @returns {BuildRecord | undefined} */
function readCurrent(cacheDir) {
  try {
    return JSON.parse(readFileSync(join(cacheDir, 'current.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** What a file is now, as far as a build cares. @param {string} path */
function stamp(path) {
  try {
    const stats = statSync(path);
    return `${stats.size}:${stats.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/** @param {BuildRecord} built @param {string[]} entries @param {LocalBuildOptions} options */
function isFresh(built, entries, options) {
  if (built.esbuild !== esbuildVersion || built.builder !== stamp(SELF)) return false;
  if (built.entries.join('\n') !== entries.join('\n')) return false;
  if ((built.mains ?? []).join('\n') !== mainsOf(options).join('\n')) return false;
  if (JSON.stringify(built.builtEntries ?? {}) !== JSON.stringify(options.builtEntries ?? {})) return false;
  if (stamp(mainFileOf(built, options)) === 'missing') return false;
  return Object.entries(built.inputs).every(([path, was]) => stamp(resolve(options.root, path)) === was);
}

/** @param {string[]} entries @param {LocalBuildOptions} options @returns {Promise<BuildRecord>} */
async function rebuild(entries, options) {
  const dir = `build-${Date.now()}-${randomBytes(4).toString('hex')}`;
  const outdir = join(options.cacheDir, dir);
  const result = await build({
    absWorkingDir: options.root,
    entryPoints: mainsOf(options),
    outdir,
    outbase: '.',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    mainFields: ['module', 'main'],
    banner: { js: REQUIRE_BANNER },
    define: builtEntryDefines(options, outdir),
    sourcemap: 'linked',
    minifyWhitespace: true,
    metafile: true,
    logLevel: 'error',
    plugins: [
      ...(options.functionModules ? [functionModules(entries, resolve(options.root, options.functionModules), options.root)] : []),
      ownImportMeta(options.root),
    ],
  });
  /** @type {BuildRecord} */
  const record = {
    dir,
    esbuild: esbuildVersion,
    builder: stamp(SELF),
    entries,
    mains: mainsOf(options),
    builtEntries: options.builtEntries ?? {},
    inputs: Object.fromEntries(
      Object.keys(result.metafile.inputs)
        .filter((input) => !input.includes(':'))
        .map((input) => [input, stamp(resolve(options.root, input))]),
    ),
  };
  writeFileSync(join(outdir, 'package.json'), '{"type":"module"}\n');
  const current = join(options.cacheDir, 'current.json');
  const partial = `${current}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(record));
  renameSync(partial, current);
  removeOldBuilds(options.cacheDir, dir);
  return record;
}

/** Leaves the newest KEEP builds besides `keep`. @param {string} cacheDir @param {string} keep */
function removeOldBuilds(cacheDir, keep) {
  const old = readdirSync(cacheDir)
    .filter((name) => name.startsWith('build-') && name !== keep)
    .sort()
    .reverse()
    .slice(KEEP);
  for (const name of old) rmSync(join(cacheDir, name), { recursive: true, force: true });
}

/**
 * The build's function-modules module: each entry imported by a literal
 * path, so each becomes a chunk of the build.
 * @param {string[]} entries The entries, relative to `root`.
 * @param {string} modulePath
 * @param {string} root
 * @returns {import('esbuild').Plugin}
 */
function functionModules(entries, modulePath, root) {
  return {
    name: 'function-modules',
    setup(plugin) {
      plugin.onLoad({ filter: new RegExp(`^${escapeRegExp(modulePath)}$`) }, () => {
        const loaders = entries.map((entry) => `  ${JSON.stringify(entry)}: () => import(${JSON.stringify(resolve(root, entry))}),`);
        return {
          loader: 'js',
          resolveDir: dirname(modulePath),
          contents: [
            'const modules = {',
            ...loaders,
            '};',
            'export function importFunctionModule(entry) {',
            '  const load = modules[entry];',
            '  return load ? load() : Promise.reject(new Error(`${entry} is not a function entry`));',
            '}',
          ].join('\n'),
        };
      });
    },
  };
}

/**
 * Gives each TypeScript file of the project that reads `import.meta` its own
 * paths in the build. Only those files pass through this plugin (a file
 * handed to JavaScript costs esbuild a round trip): the project's files are
 * scanned for `import.meta` first, a few milliseconds.
 * @param {string} root
 * @returns {import('esbuild').Plugin}
 */
function ownImportMeta(root) {
  const readers = projectFiles(root).filter((file) => readFileSync(file, 'utf8').includes('import.meta'));
  return {
    name: 'own-import-meta',
    setup(plugin) {
      if (readers.length === 0) return;
      plugin.onLoad({ filter: new RegExp(`^(${readers.map(escapeRegExp).join('|')})$`) }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        return {
          loader: 'ts',
          contents: source
            .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
            .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
            .replaceAll('import.meta.filename', JSON.stringify(args.path)),
        };
      });
    },
  };
}

/** The project's TypeScript files, outside node_modules and hidden folders. @param {string} root @returns {string[]} */
function projectFiles(root) {
  /** @param {string} dir @returns {string[]} */
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    });
  return walk(root);
}

/** @param {string} text */
function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
