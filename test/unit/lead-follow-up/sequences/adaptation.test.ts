import {
  CLICK_FOLLOW_UP_DELAY_MS,
  defaultSummary,
  planAdaptation,
  type LeadEvent,
} from '../../../../shared/lead-follow-up/sequences/adaptation';
import { DAY, step, T0 } from './steps';

const event = (type: LeadEvent['type'], overrides: Partial<LeadEvent> = {}): LeadEvent => ({
  type,
  occurred_at: new Date(T0).toISOString(),
  channel: null,
  summary: null,
  ...overrides,
});

describe('planAdaptation', () => {
  const open = [step(1, { status: 'due' }), step(2, { type: 'call' }), step(3), step(4, { type: 'messaging_app' })];

  it.each(['replied', 'meeting_booked', 'unsubscribed'] as const)('cancels every remaining step when the lead %s', (type) => {
    const plan = planAdaptation(event(type), open, T0);
    expect(plan).toEqual(
      open.map((item) => ({ follow_up_id: item.id, action: 'cancel', from_status: item.status, scheduled_for: item.scheduled_for })),
    );
  });

  it('cancels only the steps on the bounced channel', () => {
    expect(planAdaptation(event('bounced', { channel: 'email' }), open, T0).map((change) => change.follow_up_id)).toEqual([
      open[0]!.id,
      open[2]!.id,
    ]);
    expect(planAdaptation(event('bounced', { channel: 'messaging_app' }), open, T0).map((change) => change.follow_up_id)).toEqual([
      open[3]!.id,
    ]);
  });

  it('treats a bounce without a channel as an e-mail bounce', () => {
    expect(planAdaptation(event('bounced'), open, T0).map((change) => change.follow_up_id)).toEqual([open[0]!.id, open[2]!.id]);
  });

  it('brings the next scheduled step forward to an hour after a click', () => {
    const plan = planAdaptation(event('clicked', { occurred_at: new Date(T0 - 10 * 60_000).toISOString() }), open, T0);
    expect(plan).toEqual([
      {
        follow_up_id: open[1]!.id,
        action: 'reschedule',
        from_status: 'scheduled',
        scheduled_for: open[1]!.scheduled_for,
        to_scheduled_for: new Date(T0 + CLICK_FOLLOW_UP_DELAY_MS).toISOString(),
      },
    ]);
  });

  it('leaves a next step that comes within the hour anyway, and a lead with nothing scheduled', () => {
    expect(planAdaptation(event('clicked'), [step(1, { scheduled_for: new Date(T0 + 30 * 60_000).toISOString() })], T0)).toEqual([]);
    expect(planAdaptation(event('clicked'), [step(1, { status: 'due' })], T0)).toEqual([]);
  });

  it('changes nothing for an open', () => {
    expect(planAdaptation(event('opened'), open, T0 + 5 * DAY)).toEqual([]);
  });

  it('changes nothing when no step remains', () => {
    expect(planAdaptation(event('replied'), [], T0)).toEqual([]);
  });
});

describe('defaultSummary', () => {
  it('says what happened, in plain text', () => {
    expect(defaultSummary({ type: 'replied', channel: 'email' })).toBe('The lead replied (email).');
    expect(defaultSummary({ type: 'meeting_booked', channel: null })).toBe('The lead booked a meeting.');
    expect(defaultSummary({ type: 'bounced', channel: 'messaging_app' })).toBe('A follow-up bounced (messaging app).');
  });
});
