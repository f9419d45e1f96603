import { cp, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureLocalBuild } from '../../infra/local/local-build.mjs';
import { tempDir } from '../support/temp-dir';

/**
 * The build `npm start` runs (infra/local/local-build.mjs), on a project in
 * miniature laid out like this one (test/integration/fixtures/local-build):
 * a main module that reads a file next to its source and composes a function
 * entry by name through function-modules.ts.
 */
const FIXTURE = join(import.meta.dirname, 'fixtures', 'local-build');

let root: string;
const options = () => ({
  root,
  cacheDir: join(root, 'cache'),
  main: 'infra/local/main.ts',
  functionsDir: 'functions',
  functionModules: 'infra/local/function-modules.ts',
});
/** Imports a build's main module (each build has a path of its own, so nothing is cached across builds). */
const run = async (mainFile: string) => (await import(pathToFileURL(mainFile).href)) as { greeting: string; sourceDir: string };

beforeAll(async () => {
  root = tempDir('local-build');
  await cp(FIXTURE, root, { recursive: true });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the local build', () => {
  it('builds the main module with the function entries, each source keeping its own import.meta', async () => {
    const first = await ensureLocalBuild(options());
    expect(first.built).toBe(true);
    expect(first.mainFile.startsWith(join(root, 'cache'))).toBe(true);
    const module = await run(first.mainFile);
    // name.txt was read next to the source, and the entry came from the build.
    expect(module.greeting).toBe('hello, world');
    expect(module.sourceDir).toBe(join(root, 'infra', 'local'));
  });

  it('is used again while nothing it was made from changed', async () => {
    const before = await ensureLocalBuild(options());
    const again = await ensureLocalBuild(options());
    expect(again).toEqual({ mainFile: before.mainFile, built: false });
  });

  it('serves each entry it was built with from one build, and is made again when the list changes', async () => {
    const tools = { ...options(), mains: ['infra/cli/shout.ts', 'infra/local/main.ts'], cacheDir: join(root, 'tools-cache') };
    const main = await ensureLocalBuild(tools);
    const tool = await ensureLocalBuild({ ...tools, main: 'infra/cli/shout.ts' });
    expect([main.built, tool.built]).toEqual([true, false]);
    const buildOf = (file: string) => relative(tools.cacheDir, file).split('/')[0];
    expect(buildOf(tool.mainFile)).toBe(buildOf(main.mainFile));
    expect(((await import(pathToFileURL(tool.mainFile).href)) as { shouted: string }).shouted).toBe('WORLD');
    expect((await run(main.mainFile)).greeting).toBe('hello, world');
    expect((await ensureLocalBuild({ ...tools, mains: ['infra/local/main.ts'] })).built).toBe(true);
  });

  it('names each built entry’s file to the build as a constant, and is made again when they change', async () => {
    const withHelper = { ...options(), cacheDir: join(root, 'helper-cache'), builtEntries: { FIXTURE_HELPER: 'infra/local/helper.ts' } };
    const built = await ensureLocalBuild(withHelper);
    const { helperFile } = (await run(built.mainFile)) as unknown as { helperFile?: string };
    expect(helperFile).toBe(join(dirname(built.mainFile), '..', '..', 'infra', 'local', 'helper.js'));
    expect(((await import(pathToFileURL(helperFile!).href)) as { helped: string }).helped).toBe('helped');
    expect((await ensureLocalBuild(withHelper)).built).toBe(false);
    expect((await ensureLocalBuild({ ...withHelper, builtEntries: { OTHER_NAME: 'infra/local/helper.ts' } })).built).toBe(true);
    // Without it, the constant is not defined: the code runs as from source.
    const plain = (await run((await ensureLocalBuild({ ...options(), cacheDir: join(root, 'plain-cache') })).mainFile)) as unknown as {
      helperFile?: string;
    };
    expect(plain.helperFile).toBeUndefined();
  });

  it('is made again when a source changes, or a function entry is added', async () => {
    const before = await ensureLocalBuild(options());
    await writeFile(join(root, 'functions', 'greet.ts'), 'export const greet = (name: string): string => `hi, ${name}`;\n');
    const changed = await ensureLocalBuild(options());
    expect(changed.built).toBe(true);
    expect(changed.mainFile).not.toBe(before.mainFile);
    expect((await run(changed.mainFile)).greeting).toBe('hi, world');

    await writeFile(join(root, 'functions', 'other.ts'), 'export const other = 1;\n');
    const added = await ensureLocalBuild(options());
    expect(added.built).toBe(true);
    expect((await ensureLocalBuild(options())).built).toBe(false);
  });

  it('is made once when two starts find it stale at the same moment', async () => {
    await writeFile(join(root, 'functions', 'greet.ts'), 'export const greet = (name: string): string => `hey, ${name}`;\n');
    const [one, two] = await Promise.all([ensureLocalBuild(options()), ensureLocalBuild(options())]);
    expect([one.built, two.built].sort()).toEqual([false, true]);
    expect(one.mainFile).toBe(two.mainFile);
    expect((await run(one.mainFile)).greeting).toBe('hey, world');
  });

  it('keeps the newest builds only', async () => {
    for (let change = 0; change < 5; change++) {
      await writeFile(join(root, 'functions', 'other.ts'), `export const other = ${change + 2};\n`);
      await ensureLocalBuild(options());
    }
    const builds = (await readdir(join(root, 'cache'))).filter((name) => name.startsWith('build-'));
    expect(builds.length).toBeLessThanOrEqual(4);
    const current = await ensureLocalBuild(options());
    expect(builds).toContain(dirname(current.mainFile).split('/').at(-3));
  });
});
