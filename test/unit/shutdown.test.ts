import { shutdownOnRequest, watchParent } from '../../infra/local/shutdown';

/** A stop the test finishes by hand, and what the shutdown wrote and how it exited. */
function harness(options: { deadlineMs?: number } = {}) {
  const written: string[] = [];
  const exits: number[] = [];
  let finish: (() => void) | undefined;
  let failStop: ((error: Error) => void) | undefined;
  let waitingSaid: ((message: string) => void) | undefined;
  const request = shutdownOnRequest({
    stop: (onWait) => {
      waitingSaid = onWait;
      return new Promise<void>((resolve, reject) => {
        finish = resolve;
        failStop = reject;
      });
    },
    write: (text) => written.push(text),
    exit: (code) => exits.push(code),
    ...options,
  });
  return {
    request,
    written,
    exits,
    finish: () => finish!(),
    failStop: (error: Error) => failStop!(error),
    say: (message: string) => waitingSaid!(message),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('shutdownOnRequest', () => {
  it('stops gracefully on the first signal, says what it waits for, and exits 0', async () => {
    const run = harness();
    run.request('SIGINT');
    run.say('waiting for 2 job(s) in hand (sales)…');
    expect(run.exits).toEqual([]);
    run.finish();
    await settle();
    expect(run.exits).toEqual([0]);
    expect(run.written.join('')).toMatch(/SIGINT: stopping.*\n {2}waiting for 2 job\(s\) in hand \(sales\)…\nstopped\.\n$/s);
  });

  it('exits 1 at once on a second signal, without waiting for the stop', () => {
    const run = harness();
    run.request('SIGINT');
    run.request('SIGINT');
    expect(run.exits).toEqual([1]);
    expect(run.written.at(-1)).toBe('SIGINT again: exiting now.\n');
  });

  it('does not cut a stop short when the parent goes away during it', async () => {
    const run = harness();
    run.request('SIGINT');
    run.request('npm exited', { insist: false });
    expect(run.exits).toEqual([]);
    run.finish();
    await settle();
    expect(run.exits).toEqual([0]);
  });

  it('exits 1 when the stop fails', async () => {
    const run = harness();
    run.request('SIGTERM');
    run.failStop(new Error('table closed'));
    await settle();
    expect(run.exits).toEqual([1]);
    expect(run.written.at(-1)).toBe('stop failed: table closed\n');
  });

  it('exits 1 when the stop outlasts its deadline', async () => {
    const run = harness({ deadlineMs: 50 });
    run.request('SIGTERM');
    const deadline = Date.now() + 2_000;
    while (run.exits.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(run.exits).toEqual([1]);
    expect(run.written.at(-1)).toMatch(/still stopping after 0\.05 s/);
  });
});

describe('watchParent', () => {
  it('calls back once when the parent process changes', async () => {
    let ppid = 4242;
    let calls = 0;
    watchParent(() => calls++, { intervalMs: 5, ppid: () => ppid });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toBe(0);
    ppid = 1;
    const deadline = Date.now() + 2_000;
    while (calls === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toBe(1);
  });

  it('does nothing for a process started by init', async () => {
    let calls = 0;
    let ppid = 1;
    watchParent(() => calls++, { intervalMs: 5, ppid: () => ppid });
    ppid = 77;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toBe(0);
  });
});
