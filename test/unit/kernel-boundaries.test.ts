import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { typeScriptFiles } from '../support/source-files';
import { FEATURES } from '../../shared/catalogue/features';
import type { FeatureCatalogue } from '../../shared/catalogue/feature';

/**
 * A kernel that knows no feature: who may import whom under shared/, read
 * from the source. Every folder of shared/ has one role below, so a new
 * folder fails here until it is given one.
 */
const ROOT = resolve(import.meta.dirname, '../..');

/** Features: each owns its catalogue entries (its catalogue.ts) and imports no other feature. */
const FEATURES_FOLDERS = ['lead-follow-up', 'stakeholder-coordination', 'deep-research', 'voice-assistant', 'webhooks', 'crm'];
/**
 * What features share and the kernel must not know: a command's phone call (stakeholder coordination places it, the voice assistant carries
 * it).
 */
const SHARED_BY_FEATURES = ['calls'];
/** The kernel: the command kernel, what every route shares (and the reference of the kernel's own routes), the platform. */
const KERNEL = ['commands', 'api', 'platform'];
/** The service catalogue: feature-free declarations, the kernel's entries, and the gathering of every feature's (features.ts). */
const CATALOGUE = 'catalogue';
/** Below the features, importable by all: API keys, tenants and their limits, the sites directory, provider adapters, usage counters. */
const FOUNDATION = ['access', 'sites', 'providers', 'usage'];
/** Wiring: builds each function from the kernel, the features and the adapters; it may import anything in shared/. */
const WIRING = ['composition'];

/** The one file of shared/catalogue/ that imports features, and the one file of each feature it may import. */
const GATHERING = 'shared/catalogue/features.ts';
const FEATURE_CATALOGUE = 'catalogue.ts';

/**
 * Imports that break a rule today, with why. The list only shrinks: the
 * test fails when one of them is gone, so its entry is deleted with it.
 */
const KNOWN_LEAKS: readonly { file: string; imports: string; why: string }[] = [
  {
    file: 'shared/api/openapi/commands.ts',
    imports: 'shared/calls/record.ts',
    why: "the documented Command view still has the stakeholder's `call` (callSchema)",
  },
];

/** A relative import resolved to the file it loads, relative to the repository root. */
function resolveImport(file: string, specifier: string): string {
  const target = resolve(file, '..', specifier);
  const found = [`${target}.ts`, join(target, 'index.ts')].find((candidate) => existsSync(candidate)) ?? target;
  return relative(ROOT, found);
}

interface Import {
  file: string;
  specifier: string;
  target: string;
}

/** Every relative import of a file (static, side-effect, re-export, type-only and dynamic). */
function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+'([^']+)'/gm),
    ...text.matchAll(/^\s*import\s+'([^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ].map((match) => match[1]!);
  return [...new Set(specifiers)]
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({ file, specifier, target: resolveImport(join(ROOT, file), specifier) }));
}

/** The folder of shared/ a file belongs to (`lead-follow-up` for shared/lead-follow-up/sequences/step.ts), or undefined outside shared/. */
function areaOf(path: string): string | undefined {
  const [top, area, ...rest] = path.split('/');
  return top === 'shared' && rest.length > 0 ? area : undefined;
}

const sharedFiles = typeScriptFiles(join(ROOT, 'shared')).map((file) => relative(ROOT, file));
const imports = sharedFiles.flatMap(importsOf);
const isKnownLeak = (edge: Import): boolean => KNOWN_LEAKS.some((leak) => leak.file === edge.file && leak.imports === edge.target);
const describeImport = (edge: Import): string => `${edge.file} imports ${edge.target} ('${edge.specifier}')`;

/** The imports that break a rule, each named by file and import. */
function offending(rule: (edge: Import, from: string, to: string) => boolean): string[] {
  return imports
    .filter((edge) => {
      const from = areaOf(edge.file);
      const to = areaOf(edge.target);
      return from !== undefined && to !== undefined && rule(edge, from, to) && !isKnownLeak(edge);
    })
    .map(describeImport);
}

/** The import cycles (strongly connected groups of files) among shared/, each listed from its first file. */
function importCycles(): string[][] {
  const graph = new Map(sharedFiles.map((file) => [file, imports.filter((edge) => edge.file === file).map((edge) => edge.target)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        group.push(member);
      } while (member !== file);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

const isCatalogueFile = (file: string): boolean =>
  areaOf(file) === CATALOGUE || (FEATURES_FOLDERS.includes(areaOf(file) ?? '') && file.endsWith(`/${FEATURE_CATALOGUE}`));

describe('kernel boundaries', () => {
  it('reads the imports of shared/ (the rules below have something to check)', () => {
    expect(sharedFiles.length).toBeGreaterThan(100);
    expect(imports.some((edge) => edge.file === GATHERING && edge.target === 'shared/lead-follow-up/catalogue.ts')).toBe(true);
  });

  it('gives every folder of shared/ one role', () => {
    const roles = [...FEATURES_FOLDERS, ...SHARED_BY_FEATURES, ...KERNEL, CATALOGUE, ...FOUNDATION, ...WIRING];
    const folders = readdirSync(join(ROOT, 'shared')).filter((name) => statSync(join(ROOT, 'shared', name)).isDirectory());
    expect(folders.filter((folder) => !roles.includes(folder))).toEqual([]);
    expect(roles.filter((role) => !folders.includes(role))).toEqual([]);
    expect(new Set(roles).size).toBe(roles.length);
  });

  it('the kernel (commands/, api/, platform/) imports no feature, nor what features share', () => {
    const offenders = offending(
      (_, from, to) => KERNEL.includes(from) && (FEATURES_FOLDERS.includes(to) || SHARED_BY_FEATURES.includes(to)),
    );
    expect(offenders).toEqual([]);
  });

  it('a feature imports no other feature', () => {
    const offenders = offending((_, from, to) => FEATURES_FOLDERS.includes(from) && FEATURES_FOLDERS.includes(to) && from !== to);
    expect(offenders).toEqual([]);
  });

  it('the foundation (access/, sites/, providers/, usage/) imports no feature, nor the kernel above it', () => {
    const offenders = offending(
      (_, from, to) => FOUNDATION.includes(from) && [...FEATURES_FOLDERS, ...SHARED_BY_FEATURES, 'commands', 'api', ...WIRING].includes(to),
    );
    expect(offenders).toEqual([]);
  });

  it('the catalogue imports nothing from the command kernel or the API (they read the catalogue)', () => {
    const offenders = offending((_, from, to) => from === CATALOGUE && ['commands', 'api', ...WIRING].includes(to));
    expect(offenders).toEqual([]);
  });

  it('only features.ts gathers features, and from each only its catalogue.ts', () => {
    const offenders = offending(
      (edge, from, to) =>
        from === CATALOGUE &&
        (FEATURES_FOLDERS.includes(to) || SHARED_BY_FEATURES.includes(to)) &&
        (edge.file !== GATHERING || edge.target !== `shared/${to}/${FEATURE_CATALOGUE}`),
    );
    expect(offenders).toEqual([]);
  });

  it('no import cycle runs through the catalogue (a feature’s catalogue.ts never reaches back to the gathering)', () => {
    const cycles = importCycles()
      .filter((group) => group.some(isCatalogueFile))
      .map((group) => `import cycle among ${group.join(', ')}`);
    expect(cycles).toEqual([]);
  });

  it('lists its known leaks only while they last', () => {
    const gone = KNOWN_LEAKS.filter((leak) => !imports.some((edge) => edge.file === leak.file && edge.target === leak.imports)).map(
      (leak) => `${leak.file} no longer imports ${leak.imports}: delete its entry from KNOWN_LEAKS`,
    );
    expect(gone).toEqual([]);
  });
});

describe('feature catalogues', () => {
  it('lists every feature’s catalogue in features.ts, once', async () => {
    const declared = await Promise.all(
      FEATURES_FOLDERS.map(async (folder) => {
        const module = (await import(join(ROOT, 'shared', folder, FEATURE_CATALOGUE))) as Record<string, unknown>;
        const catalogues = Object.values(module).filter(
          (value): value is FeatureCatalogue => typeof value === 'object' && value !== null && 'jobTypes' in value,
        );
        return { folder, catalogues };
      }),
    );
    for (const { folder, catalogues } of declared) {
      expect([folder, catalogues.length]).toEqual([folder, 1]);
      expect([folder, FEATURES.filter((feature) => feature === catalogues[0]).length]).toEqual([folder, 1]);
    }
    expect(FEATURES).toHaveLength(FEATURES_FOLDERS.length + 1);
  });

  it('routes each feature’s paths only to its own functions', () => {
    const catalogues: readonly FeatureCatalogue[] = FEATURES;
    const offenders = catalogues.flatMap((feature, position) => {
      const own = new Set(feature.functions.map((fn) => fn.id));
      return feature.routes
        .filter((route) => !own.has(route.function))
        .map((route) => `FEATURES[${position}]: ${route.method} ${route.path} → ${route.function}`);
    });
    expect(offenders).toEqual([]);
  });

  it('names each function, job type and route once across the features', () => {
    const catalogues: readonly FeatureCatalogue[] = FEATURES;
    const repeated = (names: string[]): string[] => names.filter((name, position) => names.indexOf(name) !== position);
    expect(
      repeated(catalogues.flatMap((feature) => [...feature.functions.map((fn) => fn.id), ...feature.jobTypes.map((job) => job.worker.id)])),
    ).toEqual([]);
    expect(repeated(catalogues.flatMap((feature) => feature.jobTypes.map((job) => job.type)))).toEqual([]);
    expect(repeated(catalogues.flatMap((feature) => feature.routes.map((route) => `${route.method} ${route.path}`)))).toEqual([]);
  });
});
