/** Types of local-build.mjs (plain JavaScript, so `npm start` needs no TypeScript loader). */
export interface LocalBuildOptions {
  /** The repository (or a project laid out like it). */
  root: string;
  /** Where builds are kept. */
  cacheDir: string;
  /** The entry, relative to `root`. */
  main: string;
  /**
   * Entries built beside `main` in the same build, relative to `root`, so one build serves each of them (npm start's runtime and
   * the command-line tools share one); `main` is built whether or not it is listed.
   */
  mains?: string[];
  /** Where the function entries are, relative to `root` (a build without entries when absent). */
  functionsDir?: string;
  /** The module that imports a function entry by name (replaced in the build), relative to `root`. */
  functionModules?: string;
  /**
   * Entries built beside the others whose built file the build's code may start (a worker thread's script): each constant's
   * name → its entry, relative to `root`. The name is a global constant in the build, the built file's absolute path; run from
   * source, `typeof NAME` is `'undefined'`.
   */
  builtEntries?: Record<string, string>;
  /** Called when a build is about to be made. */
  onBuild?: () => void;
}

/** Packages left to Node rather than bundled. */
export declare const EXTERNAL: readonly string[];

/** The current build's main file, built first if there is none or it is stale; `built` says whether it was. */
export declare function ensureLocalBuild(options: LocalBuildOptions): Promise<{ mainFile: string; built: boolean }>;

/** Where the builds named `name` are kept (under node_modules/.cache). */
export declare function buildCacheDir(root: string, name: string): string;
