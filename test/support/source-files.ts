import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every TypeScript file under `dir`, recursively, its path joined onto `dir` as given (an absolute `dir` gives absolute paths). */
export function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return typeScriptFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * What `find` reports in the TypeScript files of shared/ and functions/ (the code the functions load) whose text matches
 * `mentions`, with their paths relative to `root` and how many files there are: `mentions` spares parsing the files that
 * cannot hold a finding.
 */
export function findInFunctionSources(
  root: string,
  mentions: RegExp,
  find: (file: string, source: string) => string[],
): { files: number; found: string[] } {
  const files = [...typeScriptFiles(join(root, 'shared')), ...typeScriptFiles(join(root, 'functions'))];
  const found = files.flatMap((path) => {
    const source = readFileSync(path, 'utf8');
    return mentions.test(source) ? find(relative(root, path), source) : [];
  });
  return { files: files.length, found };
}
