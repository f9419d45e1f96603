/**
 * jest's node environment, plus: when a test file ends, the
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
  async teardown() {
    for (const storage of used) storage.disable();
    used.clear();
    await super.teardown();
  }
}
