import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The import rules of docs/architecture.md "Rules of the house", checked on every build. */
const ROOT = resolve(import.meta.dirname, '../..');
const FEATURES = ['lead-follow-up', 'deep-research', 'stakeholder-coordination', 'webhooks', 'voice-assistant'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a file imports, as a path relative to the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm), ...text.matchAll(/import\('([^']+)'\)/g)].map((m) => m[1]!);
  return specifiers.filter((spec) => spec.startsWith('.')).map((spec) => relative(ROOT, resolve(file, '..', spec)));
}

const runtimeFiles = [...sourceFiles(join(ROOT, 'shared')), ...sourceFiles(join(ROOT, 'functions'))];

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

  it('a feature imports no other feature, and platform/ imports no feature', () => {
    const offenders = runtimeFiles.flatMap((file) => {
      const home = relative(join(ROOT, 'shared'), file).split('/')[0]!;
      return importsOf(file)
        .filter((target) => {
          const [top, area] = target.split('/');
          if (top !== 'shared' || !FEATURES.includes(area!)) return false;
          return home === 'platform' || (FEATURES.includes(home) && area !== home);
        })
        .map((target) => `${relative(ROOT, file)} → ${target}`);
    });
    expect(offenders).toEqual([]);
  });

  it('the service catalogue imports nothing from the command kernel (the kernel reads the catalogue)', () => {
    const offenders = sourceFiles(join(ROOT, 'shared', 'catalogue')).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('shared/commands/'))
        .map((target) => `${relative(ROOT, file)} → ${target}`),
    );
    expect(offenders).toEqual([]);
  });
});
