import { join, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { asDeployed, bundleDefines, functionBundleOptions } from '../../infra/constructs/bundle-options';
import { FUNCTIONS } from '../../shared/catalogue/functions';

/** The project root: every build runs there, as the CDK construct's does. */
export const ROOT = resolve(import.meta.dirname, '..', '..');

/** What to bundle: a catalogue function (or the init floor) by its entry. */
export interface BundleTarget {
  /** The function's id (its deployed settings are looked up by it), or a label. */
  name: string;
  /** Entry module, relative to the project root. */
  entry: string;
  /** Bundled with code splitting (a function's `lazyChunks`). */
  split: boolean;
}

/** A built bundle: the file Lambda imports, and the KiB a cold start reads (it and the chunks it imports statically). */
export interface BuiltBundle {
  file: string;
  kib: number;
}

/** The settings the deployment sets on a function, as an environment deploys it by default (none for the floor). */
export function deployedSettingsOf(functionName: string): Readonly<Record<string, string>> {
  const definition = FUNCTIONS.find((fn) => fn.id === functionName);
  return (definition && asDeployed(definition).deployedSettings) ?? {};
}

/**
 * Bundles `target` into `outdir` as the CDK construct bundles it (infra/constructs/switchboard-function.ts: ESM, node22,
 * minified, the createRequire banner, its deployed settings' constants, the pinned AWS SDK bundled in unless `sdk` is
 * `external`).
 */
export async function bundleFunction(
  target: BundleTarget,
  outdir: string,
  options: { sdk?: 'external' | 'bundled'; sourceMaps?: boolean } = {},
): Promise<BuiltBundle> {
  const sdk = options.sdk ?? 'bundled';
  const dir = join(outdir, sdk, target.name.replace(/\W+/g, '-'));
  const outfile = join(dir, 'index.mjs');
  const result = await build({
    entryPoints: [join(ROOT, target.entry)],
    ...(target.split
      ? { splitting: true, outdir: dir, entryNames: 'index', chunkNames: 'chunks/[name]-[hash]', outExtension: { '.js': '.mjs' } }
      : { outfile }),
    metafile: true,
    ...functionBundleOptions(ROOT),
    sourcemap: options.sourceMaps ?? false,
    sourcesContent: false,
    define: bundleDefines(deployedSettingsOf(target.name)),
    external: sdk === 'external' ? ['@aws-sdk/*'] : [],
    logLevel: 'error',
  });
  return { file: outfile, kib: loadedBytes(result.metafile, outfile) / 1024 };
}

/** Bytes of `file` and of every output it imports statically, as esbuild's metafile names them. */
function loadedBytes(metafile: Metafile, file: string): number {
  const outputs = new Map(Object.entries(metafile.outputs).map(([path, output]) => [resolve(path), output]));
  const seen = new Set<string>();
  const pending = [resolve(file)];
  let bytes = 0;
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (seen.has(path)) continue;
    seen.add(path);
    const output = outputs.get(path);
    if (!output) continue;
    bytes += output.bytes;
    for (const imported of output.imports)
      if (imported.kind === 'import-statement' && !imported.external) pending.push(resolve(imported.path));
  }
  return bytes;
}
