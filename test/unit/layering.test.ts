import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { typeScriptFiles } from '../support/source-files';

/**
 * Runtime code never imports infra/ (docs/architecture.md "Rules of the house").
 * Who may import whom inside shared/ (features, kernel, catalogue): kernel-boundaries.test.ts.
 */
const ROOT = resolve(import.meta.dirname, '../..');

/** Every module a file imports, as a path relative to the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm), ...text.matchAll(/import\('([^']+)'\)/g)].map(
    (m) => m[1]!,
  );
  return specifiers.filter((spec) => spec.startsWith('.')).map((spec) => relative(ROOT, resolve(file, '..', spec)));
}

const runtimeFiles = [...typeScriptFiles(join(ROOT, 'shared')), ...typeScriptFiles(join(ROOT, 'functions'))];

describe('layering', () => {
  it('finds the runtime files', () => {
    expect(runtimeFiles.length).toBeGreaterThan(50);
  });

  it('runtime code (shared/, functions/) never imports infra/', () => {
    const offenders = runtimeFiles.flatMap((file) =>
      importsOf(file)
        .filter((target) => target === 'infra' || target.startsWith('infra/'))
        .map((target) => `${relative(ROOT, file)} → ${target}`),
    );
    expect(offenders).toEqual([]);
  });
});
