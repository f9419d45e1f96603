import { followUpId } from '../../../shared/lead-follow-up/follow-up-id';
import {
  buildSequence,
  checkWrittenSequence,
  planSequenceTypes,
  sequenceLength,
  type WrittenFollowUp,
} from '../../../shared/lead-follow-up/sequence';

const COMMAND = '019a0b1c-2d3e-7f40-8a1b-2c3d4e5f6a7b';
const DAY = 86_400_000;

const written = (n: number): WrittenFollowUp[] =>
  Array.from({ length: n }, (_, index) => ({
    subject: ` Subject ${index + 1} for Jordan `,
    content: `Hi Jordan, this is step ${index + 1} of our follow-up with Trailhead Rentals.`,
    next_steps: `Step ${index + 2} next.`,
    template: index === 0 ? 'Recap & Next Step' : '',
  }));

describe('sequenceLength', () => {
  it('gives 3 follow-ups early, 5 late, 4 otherwise', () => {
    expect(sequenceLength('new')).toBe(3);
    expect(sequenceLength('qualified')).toBe(4);
    expect(sequenceLength(null)).toBe(4);
    expect(sequenceLength('Proposal sent')).toBe(5);
    expect(sequenceLength('negotiation')).toBe(5);
  });
});

describe('planSequenceTypes', () => {
  const everything = { channels: ['email', 'messaging_app', 'notification', 'web'] as const, hasPhone: true };

  it('puts followUpType first, then the reachable types in preference order, without repeats', () => {
    expect(planSequenceTypes('meeting', everything, 4)).toEqual(['meeting', 'email', 'messaging_app', 'call']);
    expect(planSequenceTypes(null, everything, 5)).toEqual(['email', 'messaging_app', 'call', 'meeting', 'professional_network_message']);
  });

  it('leaves out types the lead cannot be reached by', () => {
    const emailOnly = { channels: ['email', 'notification', 'web'] as const, hasPhone: false };
    expect(planSequenceTypes(null, emailOnly, 5)).toEqual([
      'email',
      'meeting',
      'professional_network_message',
      'video_message',
      'notification',
    ]);
  });

  it('always has 3 to 5 items from the allowed set', () => {
    const allowed = ['email', 'call', 'meeting', 'messaging_app', 'professional_network_message', 'video_message', 'notification'];
    for (const length of [3, 4, 5]) {
      const types = planSequenceTypes('video_message', { channels: ['notification', 'web'], hasPhone: false }, length);
      expect(types).toHaveLength(length);
      expect(types[0]).toBe('video_message');
      for (const type of types) expect(allowed).toContain(type);
    }
  });
});

describe('buildSequence', () => {
  const input = {
    commandId: COMMAND,
    siteId: 'site-1',
    leadId: 'lead-1',
    userId: 'user-1',
    leadStage: 'qualified',
    startMs: Date.parse('2026-11-20T09:30:00.000Z'),
    intervalMs: 3 * DAY,
    types: ['email', 'messaging_app', 'call'] as const,
    written: written(3),
  };

  it('schedules item n at n intervals after the start, in UTC, with metadata', () => {
    const items = buildSequence(input);

    expect(items.map((item) => item.scheduled_for)).toEqual([
      '2026-11-23T09:30:00.000Z',
      '2026-11-26T09:30:00.000Z',
      '2026-11-29T09:30:00.000Z',
    ]);
    expect(items[0]).toEqual({
      id: followUpId(COMMAND, 1),
      type: 'email',
      subject: 'Subject 1 for Jordan',
      content: 'Hi Jordan, this is step 1 of our follow-up with Trailhead Rentals.',
      scheduled_for: '2026-11-23T09:30:00.000Z',
      status: 'scheduled',
      site_id: 'site-1',
      lead_id: 'lead-1',
      user_id: 'user-1',
      metadata: { next_steps: 'Step 2 next.', lead_stage: 'qualified', sequence_position: 1, template_used: 'recap_next_step' },
    });
    expect(items[1]?.metadata).toMatchObject({ sequence_position: 2, template_used: 'messaging_app_follow_up' });
  });

  it('derives the same ids from the command and position on every run, distinct per position and command', () => {
    const again = buildSequence({ ...input, written: written(3).reverse() });
    expect(again.map((item) => item.id)).toEqual(buildSequence(input).map((item) => item.id));
    expect(new Set(again.map((item) => item.id)).size).toBe(3);
    expect(followUpId(COMMAND, 1)).not.toBe(followUpId('019a0b1c-2d3e-7f40-8a1b-2c3d4e5f6a7c', 1));
    expect(followUpId(COMMAND, 1)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('refuses written copy that does not match the plan', () => {
    expect(() => buildSequence({ ...input, written: written(2) })).toThrow(RangeError);
  });
});

describe('checkWrittenSequence', () => {
  it('passes copy that fits the plan', () => {
    expect(checkWrittenSequence({ follow_ups: written(3) }, ['email', 'messaging_app', 'call'], { language: 'en' })).toEqual([]);
  });

  it('finds a wrong count, placeholders, empty steps and limits per type', () => {
    const items = written(3);
    items[0] = { ...items[0]!, subject: 'Hi {first_name}' };
    items[1] = { ...items[1]!, content: 'x '.repeat(130), next_steps: ' ' };
    const problems = checkWrittenSequence({ follow_ups: items }, ['email', 'notification', 'call', 'meeting'], {});

    expect(problems.map((problem) => `${problem.code}:${problem.path.join('.')}`)).toEqual([
      'count:follow_ups',
      'placeholder:follow_ups.0.subject',
      'too_long:follow_ups.1.content',
      'empty:follow_ups.1.next_steps',
    ]);
  });
});
