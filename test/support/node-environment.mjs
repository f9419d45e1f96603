/**
 * jest's node environment, plus, when a test file ends: the folders
 * test/support/temp-dir.ts made for it are removed, and the
 * `AsyncLocalStorage` instances it used are disabled.
 *
 * jest evaluates every module again for each test file, so each file makes
 * instances of its own (jest-circus's test context, the usage meter of
 * shared/usage/meter.ts), and Node keeps every enabled instance in one
 * process-wide list that it walks for each promise the process creates:
 * without this, a worker late in a run paid, on every promise, for every
 * file it had run before. An instance used again enables itself again.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFile, rm } from 'node:fs/promises';
import NodeEnvironment from 'jest-environment-node';

/** Instances used since the current test file began (one test file runs at a time in a worker). */
const used = new Set();
const TRACKED = Symbol.for('switchboard.test.async-local-storage-tracked');

if (!AsyncLocalStorage.prototype[TRACKED]) {
  AsyncLocalStorage.prototype[TRACKED] = true;
  const { run, enterWith } = AsyncLocalStorage.prototype;
  AsyncLocalStorage.prototype.run = function trackedRun(...args) {
    used.add(this);
    return run.apply(this, args);
  };
  AsyncLocalStorage.prototype.enterWith = function trackedEnterWith(...args) {
    used.add(this);
    return enterWith.apply(this, args);
  };
}

export default class SwitchboardNodeEnvironment extends NodeEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.cpuAtStart = process.cpuUsage();
    this.tempDirs = [];
    this.global.__switchboardTempDirs = this.tempDirs;
  }

  async teardown() {
    await Promise.all(this.tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    for (const storage of used) storage.disable();
    used.clear();
    // TEST_CPU_LOG=FILE: one line per test file, the CPU its worker spent on it (ms; processes it started not included).
    if (process.env.TEST_CPU_LOG) {
      const { user, system } = process.cpuUsage(this.cpuAtStart);
      await appendFile(process.env.TEST_CPU_LOG, `${Math.round((user + system) / 1000)}\t${this.testPath}\n`);
    }
    await super.teardown();
  }
}
