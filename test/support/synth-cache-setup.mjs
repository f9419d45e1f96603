/**
 * jest `globalSetup` of the infra project: starts test/infra/prime-synth-cache.ts
 * in the background, so every environment as configured is synthesized once,
 * beside the first test files, before the files that read templates run
 * (test/support/test-sequencer.mjs schedules those after the first ones). It
 * does not wait: a file that needs an environment the background synth has
 * not written yet waits on its lock, or synthesizes it itself if the
 * background synth has died. The teardown stops it if the run ends first.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PRIMER = Symbol.for('switchboard.test.synth-primer');

export default function startSynthPrimer() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/infra/prime-synth-cache.ts'], {
    cwd: ROOT,
    // jest's own NODE_OPTIONS (vm modules) are not for it.
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: 'ignore',
  });
  child.unref();
  globalThis[PRIMER] = child;
}

/** jest `globalTeardown`: stops the background synth if it is still running. */
export function stopSynthPrimer() {
  const child = globalThis[PRIMER];
  if (child && child.exitCode === null && child.signalCode === null) child.kill();
}
