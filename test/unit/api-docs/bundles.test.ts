import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { FUNCTIONS } from '../../../shared/catalogue/functions';

/**
 * The reference adds nothing to what Lambda runs: no function's import
 * graph (what esbuild bundles: value imports, type-only ones are erased)
 * reaches zod-to-openapi, the documentation files or the generator.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const DOCS_ONLY_PACKAGES = ['@asteasolutions/zod-to-openapi', 'openapi-typescript', 'openapi-fetch', '@redocly/'];
const isDocsOnlyFile = (file: string) =>
  file.endsWith('/openapi.ts') || file.startsWith('shared/api/openapi/') || file.startsWith('infra/');

/** The modules a file imports at run time: relative ones resolved to repository paths, the rest as package names. */
function valueImportsOf(file: string): { files: string[]; packages: string[] } {
  const text = readFileSync(resolve(ROOT, file), 'utf8');
  const specifiers = [
    ...[...text.matchAll(/^\s*(import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'/gm)].map((match) => match[2]!),
    ...[...text.matchAll(/^\s*import\s+'([^']+)'/gm)].map((match) => match[1]!),
    ...[...text.matchAll(/import\(\s*'([^']+)'\s*\)/g)].map((match) => match[1]!),
  ];
  const files: string[] = [];
  const packages: string[] = [];
  for (const specifier of specifiers) {
    if (!specifier.startsWith('.')) {
      packages.push(specifier);
      continue;
    }
    const base = resolve(ROOT, dirname(file), specifier);
    const found = [base, `${base}.ts`, resolve(base, 'index.ts')].find((candidate) => existsSync(candidate) && candidate.endsWith('.ts'));
    if (found) files.push(relative(ROOT, found));
  }
  return { files, packages };
}

/** Every file and package a function entry reaches. */
function graphOf(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const found = valueImportsOf(file);
    for (const name of found.packages) packages.add(name);
    pending.push(...found.files);
  }
  return { files, packages };
}

describe('function bundles carry no documentation code', () => {
  it.each(FUNCTIONS.map((fn) => [fn.id, fn.entry] as const))('%s', (_, entry) => {
    const { files, packages } = graphOf(entry);
    expect(files.size).toBeGreaterThan(1);
    expect([...files].filter(isDocsOnlyFile)).toEqual([]);
    expect([...packages].filter((name) => DOCS_ONLY_PACKAGES.some((prefix) => name.startsWith(prefix)))).toEqual([]);
  });

  it('would see documentation code reached from a function', () => {
    const { files, packages } = graphOf('infra/api-docs/operations.ts');
    expect([...files].filter(isDocsOnlyFile)).toEqual(
      expect.arrayContaining(['shared/lead-follow-up/openapi.ts', 'shared/api/openapi/operation.ts']),
    );
    expect(packages.has('zod')).toBe(true);
    expect([...graphOf('infra/api-docs/document.ts').packages]).toContain('@asteasolutions/zod-to-openapi');
  });
});
