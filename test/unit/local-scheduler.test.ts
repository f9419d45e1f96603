import { jest } from '@jest/globals';
import type { ScheduledEvent } from 'aws-lambda';
import { startSchedule, type ScheduledHandler } from '../../infra/local/scheduler';

/** The local stand-in for an EventBridge schedule: a timer, and a run on request for tests. */
describe('a local schedule', () => {
  afterEach(() => jest.useRealTimers());

  /** A handler whose runs the test ends by hand; it records each run's event and how many were running at once. */
  function controlledHandler() {
    const events: ScheduledEvent[] = [];
    const pending: { end: () => void; fail: (error: Error) => void }[] = [];
    let active = 0;
    let mostAtOnce = 0;
    const handler: ScheduledHandler = (event) => {
      events.push(event);
      active += 1;
      mostAtOnce = Math.max(mostAtOnce, active);
      return new Promise<void>((resolve, reject) => {
        const done = () => (active -= 1);
        pending.push({ end: () => (done(), resolve()), fail: (error) => (done(), reject(error)) });
      });
    };
    return { handler, events, pending, mostAtOnce: () => mostAtOnce };
  }

  it('with no interval runs only when asked, settles as the run does, and stamps the event with its clock', async () => {
    const { handler, events, pending } = controlledHandler();
    const schedule = startSchedule({
      functionName: 'followUpDispatcher',
      timeoutSeconds: 60,
      everyMs: 0,
      handler,
      clock: { now: () => 0 },
    });
    let settled = false;
    const run = schedule.runNow().then(() => (settled = true));
    await Promise.resolve();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ 'detail-type': 'Scheduled Event', source: 'aws.events', time: '1970-01-01T00:00:00.000Z' });
    expect(settled).toBe(false);
    pending[0]!.end();
    await run;
    expect(settled).toBe(true);
    await schedule.stop();
  });

  it('hands a run on request its error, while a timer run’s error goes to onError', async () => {
    jest.useFakeTimers();
    const { handler, pending } = controlledHandler();
    const errors: unknown[] = [];
    const schedule = startSchedule({
      functionName: 'commandJanitor',
      timeoutSeconds: 60,
      everyMs: 1_000,
      handler,
      onError: (e) => errors.push(e),
    });
    const asked = schedule.runNow();
    await Promise.resolve();
    pending[0]!.fail(new Error('table gone'));
    await expect(asked).rejects.toThrow('table gone');
    expect(errors).toEqual([]);

    jest.advanceTimersByTime(1_000);
    pending[1]!.fail(new Error('queue gone'));
    await schedule.stop();
    expect(errors).toEqual([new Error('queue gone')]);
  });

  it('never overlaps runs: a run asked for during a timer run starts after it, and a tick during a run is skipped', async () => {
    jest.useFakeTimers();
    const { handler, events, pending, mostAtOnce } = controlledHandler();
    const schedule = startSchedule({ functionName: 'followUpDispatcher', timeoutSeconds: 60, everyMs: 1_000, handler });
    jest.advanceTimersByTime(1_000);
    expect(events).toHaveLength(1);
    const asked = schedule.runNow();
    jest.advanceTimersByTime(3_000);
    await Promise.resolve();
    expect(events).toHaveLength(1);

    pending[0]!.end();
    await jest.advanceTimersByTimeAsync(0);
    expect(events).toHaveLength(2);
    pending[1]!.end();
    await asked;
    expect(mostAtOnce()).toBe(1);
    await schedule.stop();
  });

  it('refuses a run once stopped', async () => {
    const { handler } = controlledHandler();
    const schedule = startSchedule({ functionName: 'followUpDispatcher', timeoutSeconds: 60, everyMs: 0, handler });
    await schedule.stop();
    await expect(schedule.runNow()).rejects.toThrow('followUpDispatcher is stopped');
  });
});
