import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HTTP_STATUS_OF } from '../../shared/platform/errors';
import { sourceComments } from '../support/source-comments';

/**
 * Every reference a reader can follow points at something in this
 * repository: relative links and section anchors in README.md and docs/,
 * repository paths in backticks there and in the comments of shared/,
 * functions/, infra/, test/, examples/ and the root configs, and sections
 * named in quotes after a page (docs/configuration.md "Settings",
 * docs/webhooks.md "Events"). Nothing names the design pages that live
 * outside a clone.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CODE_DIRS = ['shared', 'functions', 'infra', 'test', 'examples'];
const ROOT_CODE = ['jest.config.js', 'eslint.config.js'];
const PATH_ROOTS = ['shared', 'functions', 'infra', 'test', 'docs', 'examples'];
/** Names of pages that exist only beside the project lead's checkout, never in a clone (built so this file does not name them). */
const OUTSIDE_PAGES = ['ARCHITECTURE', 'PROVIDERS', 'TOOLCHAIN', 'STYLE'].map((name) => `${name}.md`);
const OUTSIDE_DIR = ['..', 'shared', ''].join('/');

function walk(dir: string, keep: (file: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) found.push(...walk(path, keep));
    } else if (keep(path)) found.push(path);
  }
  return found;
}

const markdownFiles = ['README.md', ...walk('docs', (file) => file.endsWith('.md'))];
const codeFiles = [
  ...CODE_DIRS.filter((dir) => existsSync(join(ROOT, dir))).flatMap((dir) => walk(dir, (file) => /\.(ts|mjs|js)$/.test(file))),
  ...ROOT_CODE,
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function headingsOf(file: string): { titles: Set<string>; slugs: Set<string> } {
  const titles = new Set<string>();
  const slugs = new Set<string>();
  const counts = new Map<string, number>();
  let fenced = false;
  for (const line of readFileSync(join(ROOT, file), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.+?)\s*#*$/.exec(line)?.[1];
    if (!heading) continue;
    titles.add(heading.replace(/`/g, ''));
    const slug = slugOf(heading);
    const seen = counts.get(slug) ?? 0;
    slugs.add(seen === 0 ? slug : `${slug}-${seen}`);
    counts.set(slug, seen + 1);
  }
  return { titles, slugs };
}

/** The text of every comment of a TypeScript or JavaScript file, with the line it starts on. */
function commentsOf(file: string): { line: number; text: string }[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return sourceComments(text).map((comment) => ({ line: lineAt(text, comment.pos), text: comment.text }));
}

/** Text outside fenced code blocks, where Markdown links live. */
function proseOf(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ' '));
}

interface Problem {
  where: string;
  problem: string;
}

function checkTarget(from: string, target: string, where: string, problems: Problem[], base = dirname(from)): void {
  const [pathPart, anchor] = target.split('#') as [string, string | undefined];
  const file = pathPart === '' ? from : relative(ROOT, resolve(join(ROOT, base), pathPart));
  if (!existsSync(join(ROOT, file))) {
    problems.push({ where, problem: `${target}: no ${file} in the repository` });
    return;
  }
  if (anchor !== undefined && (!file.endsWith('.md') || !headingsOf(file).slugs.has(anchor))) {
    problems.push({ where, problem: `${target}: ${file} has no section #${anchor}` });
  }
}

/** Repository paths (a file under shared/, a docs page with its anchor, a folder of infra/) named in a text. */
function checkPaths(text: string, from: string, where: (index: number) => string, problems: Problem[]): void {
  const pattern = new RegExp(`(?<![\\w./-])((?:${PATH_ROOTS.join('|')})/[\\w./-]*[\\w/])(#[\\w-]+)?`, 'g');
  for (const match of text.matchAll(pattern)) {
    const [, path, anchor] = match as unknown as [string, string, string | undefined];
    const next = text[match.index + match[0].length];
    // Patterns and placeholders (shared/<feature>/, test/**/x, …) name no one file.
    if (next === '<' || next === '*' || next === '…' || next === '{' || /[<*{…]/.test(path)) continue;
    const isFile = /\.(ts|mjs|js|json|jsonl|md|d\.ts)$/.test(path);
    if (!isFile && !path.endsWith('/')) continue;
    checkTarget(from, `${path}${anchor ?? ''}`, where(match.index), problems, '.');
  }
}

/**
 * Sections named in quotes after a page: docs/configuration.md "Settings", docs/webhooks.md "Events" › "Payload", and after
 * a Markdown link to a page of `from` (a Markdown file): [Configuration](configuration.md), "Source maps".
 */
function checkNamedSections(text: string, where: (index: number) => string, problems: Problem[], from?: string): void {
  const quoted = '((?:["“][^"”\\n]+["”](?:\\s*›\\s*)?)+)';
  const named = new RegExp(`\\b(README(?:\\.md)?|docs\\/[\\w-]+\\.md)(?:'s)?,?\\s+${quoted}`, 'g');
  const linked = new RegExp(`\\]\\(([\\w./-]+\\.md)\\),?\\s+${quoted}`, 'g');
  const found = [...text.matchAll(named)].map((match) => ({ match, page: match[1]!.startsWith('README') ? 'README.md' : match[1]! }));
  if (from?.endsWith('.md')) {
    for (const match of text.matchAll(linked)) found.push({ match, page: normalize(join(dirname(from), match[1]!)) });
  }
  for (const { match, page } of found) {
    if (!existsSync(join(ROOT, page))) continue; // a missing page is reported by checkPaths or the link check
    const { titles } = headingsOf(page);
    for (const [, name] of match[2]!.matchAll(/["“]([^"”\n]+)["”]/g)) {
      if (!titles.has(name!)) problems.push({ where: where(match.index), problem: `${page} has no section "${name}"` });
    }
  }
}

/**
 * The design pages, and the folder beside the checkout that holds them. In
 * code, that folder's relative path is also how infra/ imports shared/, so
 * there only a page name after it counts; in prose and comments any mention does.
 */
function checkOutsidePages(text: string, where: (index: number) => string, problems: Problem[], prose = true): void {
  for (const name of [...OUTSIDE_PAGES, OUTSIDE_DIR]) {
    let index = text.indexOf(name);
    while (index >= 0) {
      const isImportPath =
        name === OUTSIDE_DIR &&
        (!prose ? !/^[A-Z]/.test(text.slice(index + name.length)) : text.slice(Math.max(0, index - 3), index) === '../');
      if (!isImportPath) problems.push({ where: where(index), problem: `names ${name}, which a clone does not have` });
      index = text.indexOf(name, index + name.length);
    }
  }
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

describe('documentation references', () => {
  it('finds the pages and the code it checks', () => {
    expect(markdownFiles).toEqual(expect.arrayContaining(['README.md', 'docs/configuration.md', 'docs/webhooks.md']));
    expect(codeFiles.length).toBeGreaterThan(200);
  });

  it('links only to files and sections that exist, from README.md and docs/', () => {
    const problems: Problem[] = [];
    for (const file of markdownFiles) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const prose = proseOf(text);
      const where = (index: number) => `${file}:${lineAt(text, index)}`;
      for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        checkTarget(file, target, where(match.index), problems);
      }
      checkPaths(prose, file, where, problems);
      checkNamedSections(text, where, problems, file);
      checkOutsidePages(text, where, problems);
    }
    expect(problems).toEqual([]);
  });

  it('names only files and sections that exist, in the comments of the code and tests', () => {
    const problems: Problem[] = [];
    for (const file of codeFiles) {
      for (const comment of commentsOf(file)) {
        const where = (index: number) => `${file}:${comment.line + lineAt(comment.text, index) - 1}`;
        checkPaths(comment.text, file, where, problems);
        checkNamedSections(comment.text, where, problems);
        checkOutsidePages(comment.text, where, problems);
      }
    }
    expect(problems).toEqual([]);
  });

  it('never names the design pages outside the repository, in code, tests or docs', () => {
    const problems: Problem[] = [];
    for (const file of [...codeFiles, ...markdownFiles]) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      checkOutsidePages(text, (index) => `${file}:${lineAt(text, index)}`, problems, file.endsWith('.md'));
    }
    expect(problems).toEqual([]);
  });

  it('sends every example body as JSON, and gives each Idempotency-Key to one example only', () => {
    const owners = new Map<string, string[]>();
    const problems: string[] = [];
    for (const file of markdownFiles) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [index, block] of [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match, position) => [position, match[1]!] as const)) {
        const commands = block
          .replace(/\\\n/g, ' ')
          .split('\n')
          .filter((line) => /(^|\$\(|\s)curl\s/.test(line) && !line.trimStart().startsWith('#'));
        for (const command of commands) {
          if (/\s-d\s/.test(command) && !command.includes("-H 'content-type: application/json'"))
            problems.push(`${file}, sh block ${index + 1}: ${command.slice(0, 100)}`);
          for (const [, key] of command.matchAll(/Idempotency-Key: ([\w.-]+)'/g))
            owners.set(key!, [...(owners.get(key!) ?? []), `${file}#${index}`]);
        }
      }
    }
    expect(problems).toEqual([]);
    expect([...owners].filter(([, where]) => where.length > 1)).toEqual([]);
    expect(owners.size).toBeGreaterThan(5);
  });

  it('documents in docs/configuration.md every setting the code reads', () => {
    const read = new Set<string>();
    const pattern =
      /(?:settings|env|process\.env)\??\.([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)|\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+): (?:z\.|wholeNumber|httpUrl|optionalUrl|flag|delays|ports)/g;
    for (const file of codeFiles.filter((path) => /^(shared|functions|infra\/local|infra\/cli)\//.test(path))) {
      for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(pattern)) read.add((match[1] ?? match[2])!);
    }
    const page = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
    expect(read.size).toBeGreaterThan(30);
    expect([...read].filter((name) => !page.includes(`\`${name}\``)).sort()).toEqual([]);
  });

  it('lists every error code under its status in docs/api.md "Errors"', () => {
    const page = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
    const documented: Record<string, number> = {};
    for (const [, status, codes] of page.matchAll(/^\| (\d{3}) \| (.+) \|$/gm)) {
      for (const [, code] of codes!.matchAll(/`([A-Z_]+)`/g)) documented[code!] = Number(status);
    }
    expect(documented).toEqual({ ...HTTP_STATUS_OF });
  });

  it('catches what it is meant to catch', () => {
    const problems: Problem[] = [];
    const at = () => 'sample';
    checkPaths('see `shared/nowhere/x.ts` and docs/webhooks.md#no-such-section', 'README.md', at, problems);
    checkNamedSections('README "No such section"', at, problems);
    checkNamedSections(
      'see [Configuration](configuration.md), "Source maps" and [Performance](performance.md), "Nowhere"',
      at,
      problems,
      'docs/api.md',
    );
    checkOutsidePages(`see ${OUTSIDE_DIR}${OUTSIDE_PAGES[0]}`, at, problems);
    checkOutsidePages(`import { x } from '${OUTSIDE_DIR}platform/x';`, at, problems, false); // infra/ importing shared/: code, not a page
    checkOutsidePages(`const page = '${OUTSIDE_DIR}${OUTSIDE_PAGES[3]}';`, at, problems, false);
    expect(problems.map((found) => found.problem)).toEqual([
      'shared/nowhere/x.ts: no shared/nowhere/x.ts in the repository',
      'docs/webhooks.md#no-such-section: docs/webhooks.md has no section #no-such-section',
      'README.md has no section "No such section"',
      'docs/performance.md has no section "Nowhere"',
      `names ${OUTSIDE_PAGES[0]}, which a clone does not have`,
      `names ${OUTSIDE_DIR}, which a clone does not have`,
      `names ${OUTSIDE_PAGES[3]}, which a clone does not have`,
      `names ${OUTSIDE_DIR}, which a clone does not have`,
    ]);
    expect(statSync(join(ROOT, 'docs/webhooks.md')).isFile()).toBe(true);
  });
});
