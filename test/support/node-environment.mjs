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
import { readFileSync } from 'node:fs';
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
    this.childCpuAtStart = childCpuMs();
    this.startedAt = Date.now();
    this.tempDirs = [];
    this.global.__switchboardTempDirs = this.tempDirs;
  }

  async teardown() {
    await Promise.all(this.tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    for (const storage of used) storage.disable();
    used.clear();
    // TEST_CPU_LOG=FILE: one line per test file: the CPU its worker spent on it, the CPU of the processes it started and that
    // have ended (Linux only, else 0), and its wall time, in ms, then the file and the worker's pid. Wall minus both is what the
    // file waited (or waited for a core).
    if (process.env.TEST_CPU_LOG) {
      const { user, system } = process.cpuUsage(this.cpuAtStart);
      const line = [
        Math.round((user + system) / 1000),
        childCpuMs() - this.childCpuAtStart,
        Date.now() - this.startedAt,
        this.testPath,
        process.pid,
      ];
      await appendFile(process.env.TEST_CPU_LOG, `${line.join('\t')}\n`);
    }
    await super.teardown();
  }
}

/** CPU (ms) of this process's children that have ended and been waited for, with theirs: /proc/self/stat's cutime and cstime. */
function childCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    // After the command name: state is field 3, cutime 16 and cstime 17 (1-based), in clock ticks of 10 ms.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}
