import { localIntervalMs } from '../../infra/local/runtime';
import { functionById } from '../../shared/catalogue/functions';

describe('local schedules', () => {
  const dispatcher = functionById('followUpDispatcher');
  const janitor = functionById('commandJanitor');

  it('run the follow-up dispatcher every FOLLOW_UP_DISPATCH_SECONDS (60 by default), the janitor every scheduleMinutes', () => {
    expect(localIntervalMs(dispatcher, {})).toBe(60_000);
    expect(localIntervalMs(dispatcher, { FOLLOW_UP_DISPATCH_SECONDS: '5' })).toBe(5_000);
    expect(localIntervalMs(janitor, { FOLLOW_UP_DISPATCH_SECONDS: '5' })).toBe(5 * 60_000);
  });

  it.each(['0', '1.5', 'soon'])('refuse FOLLOW_UP_DISPATCH_SECONDS=%s, naming it', (value) => {
    expect(() => localIntervalMs(dispatcher, { FOLLOW_UP_DISPATCH_SECONDS: value })).toThrow(/FOLLOW_UP_DISPATCH_SECONDS/);
  });
});
