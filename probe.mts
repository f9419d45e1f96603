import { build, type Metafile } from 'esbuild';
import { resolve, join } from 'node:path';
import { BUNDLE_TARGET, bundleDefines, MAIN_FIELDS, REQUIRE_BANNER } from './infra/constructs/bundle-options';
import { FUNCTIONS } from './shared/catalogue/functions';
const id = process.argv[2] ?? 'getCommandApi';
const fn = id === 'floor' ? { entry: 'test/bench/init-floor.ts', deployedSettings: {} } : FUNCTIONS.find((f) => f.id === id)!;
const dir = `/tmp/probe-${id}`;
const result = await build({ entryPoints: [resolve(fn.entry)], splitting: true, outdir: dir, entryNames: 'index', chunkNames: 'chunks/[name]-[hash]', outExtension: { '.js': '.mjs' }, metafile: true, bundle: true, platform: 'node', format: 'esm', target: BUNDLE_TARGET, mainFields: MAIN_FIELDS, minify: true, banner: { js: REQUIRE_BANNER }, define: bundleDefines(fn.deployedSettings ?? {}), logLevel: 'error' });
const m: Metafile = result.metafile;
const outputs = new Map(Object.entries(m.outputs).map(([p, o]) => [resolve(p), o]));
const seen = new Set<string>(); const pending = [resolve(join(dir, 'index.mjs'))];
for (let p = pending.pop(); p; p = pending.pop()) { if (seen.has(p)) continue; seen.add(p); for (const i of outputs.get(p)!.imports) if (i.kind === 'import-statement' && !i.external) pending.push(resolve(i.path)); }
const byOwner = new Map<string, number>();
for (const p of seen) for (const [input, { bytesInOutput }] of Object.entries(outputs.get(p)!.inputs)) {
  const mm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input); const owner = mm ? mm[1]! : input.split('/').slice(0, 2).join('/');
  byOwner.set(owner, (byOwner.get(owner) ?? 0) + bytesInOutput);
}
let total = 0; for (const v of byOwner.values()) total += v;
console.log(id, 'static KiB', (total / 1024).toFixed(0));
for (const [k, v] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((v / 1024).toFixed(1).padStart(7), k);
