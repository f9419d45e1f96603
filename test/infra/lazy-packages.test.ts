import { resolve } from 'node:path';
import { build } from 'esbuild';
import { functionBundleOptions } from '../../infra/constructs/bundle-options';
import { findInFunctionSources } from '../support/source-files';

/**
 * Packages the runtime imports on first use (`await import('package')`)
 * must be ES modules in a function's bundle. Every function is code split,
 * and a CommonJS module imported that way becomes a chunk whose only export
 * is `default`: its named exports are undefined in AWS (and under
 * `npm start`), while Jest, on the sources, sees them all. A CommonJS
 * package read on first use goes through a module of our own that imports
 * it statically (shared/providers/crm/hubspot-lists.ts).
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const DYNAMIC_PACKAGE_IMPORT = /\bimport\(\s*['"]([^'".][^'"]*)['"]\s*\)/g;

/** Each bare specifier the runtime imports on first use, with the files that do. */
function packagesImportedOnFirstUse(): Map<string, string[]> {
  const { found: uses } = findInFunctionSources(ROOT, /\bimport\(/, (file, source) =>
    [...source.matchAll(DYNAMIC_PACKAGE_IMPORT)].map((match) => `${match[1]!}\t${file}`),
  );
  const found = new Map<string, string[]>();
  for (const use of uses) {
    const [specifier, file] = use.split('\t') as [string, string];
    found.set(specifier, [...(found.get(specifier) ?? []), file]);
  }
  return found;
}

/** The module format esbuild gives what `import(specifier)` resolves to, bundled as a function is. */
async function formatInBundle(specifier: string): Promise<string | undefined> {
  const { metafile } = await build({
    ...functionBundleOptions(ROOT),
    stdin: { contents: `export const loaded = () => import(${JSON.stringify(specifier)});`, resolveDir: ROOT, loader: 'ts' },
    write: false,
    minify: false,
    metafile: true,
    logLevel: 'silent',
  });
  const record = metafile.inputs['<stdin>']?.imports.find((item) => item.kind === 'dynamic-import');
  return record ? metafile.inputs[record.path]?.format : undefined;
}

describe('packages imported on first use', () => {
  const packages = packagesImportedOnFirstUse();

  it('are found where the runtime imports them', () => {
    expect(packages.get('openai')).toEqual(['shared/providers/search/perplexity.ts']);
    expect(packages.get('minisearch')).toEqual(['shared/providers/search/local-corpus.ts']);
  });

  it.each([...packages.keys()])('%s is an ES module in a function bundle', async (specifier) => {
    expect({ specifier, importedBy: packages.get(specifier), format: await formatInBundle(specifier) }).toEqual({
      specifier,
      importedBy: packages.get(specifier),
      format: 'esm',
    });
  });

  it("tells a CommonJS package apart (HubSpot's generated lists module)", async () => {
    await expect(formatInBundle('@hubspot/api-client/lib/codegen/crm/lists/index.js')).resolves.toBe('cjs');
  });
});
