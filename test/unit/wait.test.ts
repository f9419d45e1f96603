import type { CommandStatus, StoredCommand } from '../../shared/commands/record';
import { LONGEST_POLL_PAUSE_MS, preferredWaitMs, waitForTerminal } from '../../shared/commands/wait';

describe('preferredWaitMs', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['respond-async', undefined],
    ['wait=5', 5000],
    ['respond-async, wait=3', 3000],
    ['wait="2"', 2000],
    ['wait=0', undefined],
    ['wait=999', 25000],
    ['handling=lenient; wait=1.5', 1500],
    ['wait=abc', undefined],
  ])('reads %p as %p ms', (header, expected) => {
    expect(preferredWaitMs(header, 25)).toBe(expected);
  });
});

describe('waitForTerminal', () => {
  /** A store whose command ends `afterMs` from now, counting each kind of read. */
  function endingStore(afterMs: number) {
    const endsAt = Date.now() + afterMs;
    const reads = { status: 0, whole: 0, statusTimes: [] as number[] };
    const status = (): CommandStatus => (Date.now() >= endsAt ? 'completed' : 'in_progress');
    return {
      reads,
      store: {
        statusOf: async () => {
          reads.status += 1;
          reads.statusTimes.push(Date.now());
          return status();
        },
        get: async (id: string) => {
          reads.whole += 1;
          return { id, status: status() } as StoredCommand;
        },
      },
    };
  }

  it('polls the status alone, backing off, and reads the command whole once at the end', async () => {
    const { store, reads } = endingStore(600);
    const started = Date.now();
    const ended = await waitForTerminal(store, 'c1', 5_000, { id: 'c1', status: 'in_progress' } as StoredCommand);
    expect(ended?.status).toBe('completed');
    expect(reads.whole).toBe(1);
    // 25, 50, 100, 200, 250, 250, … ms: a 0.6 s command is heard of within a pause of its end, in a handful of reads.
    expect(reads.status).toBeLessThanOrEqual(8);
    expect(Date.now() - started).toBeLessThan(600 + 400);
    const gaps = reads.statusTimes.slice(1).map((at, index) => at - reads.statusTimes[index]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(LONGEST_POLL_PAUSE_MS + 100);
  });

  it('answers the command it was given, unread, when it is already terminal', async () => {
    const { store, reads } = endingStore(0);
    const done = { id: 'c2', status: 'completed' } as StoredCommand;
    expect(await waitForTerminal(store, 'c2', 5_000, done)).toBe(done);
    expect(reads).toMatchObject({ status: 0, whole: 0 });
  });
});
