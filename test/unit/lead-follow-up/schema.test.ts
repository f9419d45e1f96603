import { AppError } from '../../../shared/platform/errors';
import { isValidPhoneNumber, parseLeadFollowUpRequest } from '../../../shared/lead-follow-up/schema';
import { readLeadFollowUpSettings } from '../../../shared/lead-follow-up/settings';
import { DEMO } from './fixtures';

function failure(raw: unknown): AppError {
  try {
    parseLeadFollowUpRequest(raw, 'channel_messages');
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected the request to be refused');
}

const valid = { siteId: DEMO.siteId, leadId: DEMO.leadId };

describe('parseLeadFollowUpRequest', () => {
  it('normalizes the snake_case aliases to one shape', () => {
    const parsed = parseLeadFollowUpRequest(
      {
        site_id: DEMO.siteId,
        lead_id: DEMO.leadId,
        user_id: DEMO.userId,
        agent_id: DEMO.salesAgentId,
        visitor_id: '3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7',
        followUpType: 'email',
      },
      'channel_messages',
    );

    expect(parsed).toEqual({
      siteId: DEMO.siteId,
      leadId: DEMO.leadId,
      userId: DEMO.userId,
      agentId: DEMO.salesAgentId,
      visitorId: '3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7',
      followUpType: 'email',
      output: 'channel_messages',
    });
  });

  it('accepts agentId spelled either way and gives the canonical shape back unchanged when parsed again', () => {
    const first = parseLeadFollowUpRequest(
      {
        siteId: DEMO.siteId,
        leadId: DEMO.leadId,
        agentId: DEMO.salesAgentId,
        previousInteractions: [{ date: '2026-11-18', type: 'call', content: 'Discussed the rollout plan.' }],
        leadData: { pain_points: 'slow check-in', company: 'Trailhead' },
        productInterest: ['Booking calendar'],
        followUpInterval: '2 weeks',
        phone_number: '+1 415 555 0199',
        output: 'follow_up_sequence',
      },
      'channel_messages',
    );

    expect(first.previousInteractions).toEqual([{ date: '2026-11-18', type: 'call', summary: 'Discussed the rollout plan.' }]);
    expect(first.leadData).toEqual({ pain_points: ['slow check-in'], company: 'Trailhead' });
    expect(parseLeadFollowUpRequest(JSON.parse(JSON.stringify(first)), 'channel_messages')).toEqual(first);
  });

  it('defaults output to the deployment setting and lets the request override it', () => {
    expect(parseLeadFollowUpRequest(valid, 'follow_up_sequence').output).toBe('follow_up_sequence');
    expect(parseLeadFollowUpRequest({ ...valid, output: 'channel_messages' }, 'follow_up_sequence').output).toBe('channel_messages');
    expect(readLeadFollowUpSettings({}).defaultOutput).toBe('channel_messages');
    expect(readLeadFollowUpSettings({ LEAD_FOLLOW_UP_OUTPUT: 'follow_up_sequence' }).defaultOutput).toBe('follow_up_sequence');
    expect(() => readLeadFollowUpSettings({ LEAD_FOLLOW_UP_OUTPUT: 'poems' })).toThrow(/LEAD_FOLLOW_UP_OUTPUT/);
  });

  it('treats null as not given', () => {
    expect(parseLeadFollowUpRequest({ ...valid, userId: null, phone_number: null }, 'channel_messages')).toEqual({
      ...valid,
      output: 'channel_messages',
    });
  });

  describe('INVALID_REQUEST: missing ids or a malformed body', () => {
    it.each([
      ['a body that is not an object', [valid]],
      ['a missing siteId', { leadId: DEMO.leadId }],
      ['a missing leadId', { site_id: DEMO.siteId }],
      ['an empty siteId', { siteId: '', leadId: DEMO.leadId }],
      ['a wrongly typed field', { ...valid, productInterest: 'tents' }],
      ['an unknown output', { ...valid, output: 'poem' }],
      ['an interaction without summary or content', { ...valid, previousInteractions: [{ date: '2026-01-01', type: 'call' }] }],
      ['an unreadable followUpInterval', { ...valid, followUpInterval: 'whenever' }],
    ])('%s', (_name, raw) => {
      const error = failure(raw);
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.statusCode).toBe(400);
    });

    it('reports schema problems as zod-style details', () => {
      const error = failure({ leadId: DEMO.leadId });
      expect(error.details).toEqual([expect.objectContaining({ path: ['siteId'], message: 'Required' })]);
    });

    it('refuses an alias that disagrees with its canonical spelling', () => {
      const error = failure({ ...valid, site_id: DEMO.leadId });
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.details).toEqual([expect.objectContaining({ path: ['site_id'] })]);
    });

    it('comes before INVALID_INPUT', () => {
      expect(failure({ siteId: 'not-a-uuid' }).code).toBe('INVALID_REQUEST');
    });
  });

  describe('INVALID_INPUT: an id that is not a UUID', () => {
    it.each(['siteId', 'leadId', 'userId', 'agent_id', 'visitorId'])('%s', (field) => {
      const error = failure({ ...valid, [field]: 'd4e5f6a7-not-a-uuid' });
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.details).toEqual([expect.objectContaining({ path: [field === 'agent_id' ? 'agentId' : field] })]);
    });

    it('includes ids of the wrong type', () => {
      expect(failure({ ...valid, siteId: 12345 }).code).toBe('INVALID_INPUT');
    });

    it('comes before INVALID_PHONE_NUMBER', () => {
      expect(failure({ ...valid, userId: 'nope', phone_number: '' }).code).toBe('INVALID_INPUT');
    });
  });

  describe('INVALID_PHONE_NUMBER', () => {
    it.each([
      ['empty', ''],
      ['blank', '   '],
      ['six digits', '+1 234 56'],
      ['letters', 'call me maybe'],
      ['a number', 4155550123],
    ])('%s', (_name, phone) => {
      const error = failure({ ...valid, phone_number: phone });
      expect(error.code).toBe('INVALID_PHONE_NUMBER');
      expect(error.statusCode).toBe(400);
    });

    it('accepts a number with seven or more digits and trims it', () => {
      expect(parseLeadFollowUpRequest({ ...valid, phone_number: ' 555-0123 4 ' }, 'channel_messages').phone_number).toBe('555-0123 4');
    });
  });
});

describe('parseLeadFollowUpRequest: what the command keeps of the lists', () => {
  it('keeps the newest given interactions within the history window, and the first pain points and product interests', () => {
    const parsed = parseLeadFollowUpRequest(
      {
        siteId: DEMO.siteId,
        leadId: DEMO.leadId,
        previousInteractions: Array.from({ length: 100 }, (_, index) => ({
          date: `2026-01-01 #${String(index).padStart(3, '0')}`,
          type: 'chat',
          summary: `${index} ${'x'.repeat(4_000)}`,
        })),
        leadData: { pain_points: Array.from({ length: 50 }, (_, index) => `pain ${index}`) },
        productInterest: [...Array.from({ length: 50 }, (_, index) => `product ${index % 20}`)],
      },
      'channel_messages',
    );
    expect(parsed.previousInteractions).toHaveLength(3);
    expect(parsed.previousInteractions!.map((item) => item.summary.split(' ')[0])).toEqual(['97', '98', '99']);
    expect(parsed.previousInteractions!.every((item) => item.summary.length === 2_000)).toBe(true);
    expect(parsed.leadData?.pain_points).toEqual(Array.from({ length: 10 }, (_, index) => `pain ${index}`));
    expect(parsed.productInterest).toEqual(Array.from({ length: 10 }, (_, index) => `product ${index}`));
  });
});

describe('isValidPhoneNumber', () => {
  it('wants 7 to 15 digits with common separators only', () => {
    expect(isValidPhoneNumber('+14155550123')).toBe(true);
    expect(isValidPhoneNumber('(415) 555-0123')).toBe(true);
    expect(isValidPhoneNumber('555012')).toBe(false);
    expect(isValidPhoneNumber('1234567890123456')).toBe(false);
    expect(isValidPhoneNumber('415 555 0123 ext 9')).toBe(false);
  });
});

describe('parseLeadFollowUpRequest: control and bidi characters', () => {
  const NUL = '\u0000';
  const RLO = '\u202E';
  const planted = (text: string) => `${NUL}${text.slice(0, 2)}${RLO}${text.slice(2)}\u2066\u0085`;

  it('cleans every free-text field of the request', () => {
    const parsed = parseLeadFollowUpRequest(
      {
        ...valid,
        followUpType: planted('email'),
        leadStage: planted('qualified'),
        previousInteractions: [
          { date: planted('2026-11-18'), type: planted('call'), summary: planted('Discussed pricing') },
          { date: '2026-11-19', type: 'chat', content: planted('Asked for a demo') },
        ],
        leadData: {
          name: planted('Jordan'),
          company: planted('Trailhead'),
          position: planted('Director'),
          email: planted('jordan@trailhead.example'),
          phone: planted('+14155550123'),
          pain_points: [planted('slow check-in')],
          budget_range: planted('$10k'),
        },
        productInterest: [planted('Booking calendar')],
        followUpInterval: planted('3 days'),
        phone_number: `${RLO}+1 415 555 0199${NUL}`,
      },
      'channel_messages',
    );

    expect(parsed).toEqual({
      ...valid,
      followUpType: 'email',
      leadStage: 'qualified',
      previousInteractions: [
        { date: '2026-11-18', type: 'call', summary: 'Discussed pricing' },
        { date: '2026-11-19', type: 'chat', summary: 'Asked for a demo' },
      ],
      leadData: {
        name: 'Jordan',
        company: 'Trailhead',
        position: 'Director',
        email: 'jordan@trailhead.example',
        phone: '+14155550123',
        pain_points: ['slow check-in'],
        budget_range: '$10k',
      },
      productInterest: ['Booking calendar'],
      followUpInterval: '3 days',
      phone_number: '+1 415 555 0199',
      output: 'channel_messages',
    });
  });

  it('keeps newlines and tabs, and parsing the result again changes nothing', () => {
    const parsed = parseLeadFollowUpRequest(
      { ...valid, previousInteractions: [{ date: '2026-11-18', type: 'call', summary: 'Line one\r\n\tLine two' }] },
      'channel_messages',
    );
    expect(parsed.previousInteractions![0]!.summary).toBe('Line one\n\tLine two');
    expect(parseLeadFollowUpRequest(JSON.parse(JSON.stringify(parsed)), 'channel_messages')).toEqual(parsed);
  });
});

describe('parseLeadFollowUpRequest: upper-case UUIDs', () => {
  const upper = (id: string) => id.toUpperCase();

  it('gives every id in lower case, whichever spelling named it', () => {
    const parsed = parseLeadFollowUpRequest(
      {
        site_id: upper(DEMO.siteId),
        leadId: upper(DEMO.leadId),
        userId: upper(DEMO.userId),
        agent_id: upper(DEMO.salesAgentId),
        visitorId: '3E4F5A6B-7C8D-4E9F-A0B1-C2D3E4F5A6B7',
      },
      'channel_messages',
    );
    expect(parsed).toEqual({
      siteId: DEMO.siteId,
      leadId: DEMO.leadId,
      userId: DEMO.userId,
      agentId: DEMO.salesAgentId,
      visitorId: '3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7',
      output: 'channel_messages',
    });
  });

  it('treats an alias that differs only in case as the same id', () => {
    expect(parseLeadFollowUpRequest({ ...valid, site_id: upper(DEMO.siteId) }, 'channel_messages').siteId).toBe(DEMO.siteId);
  });
});

describe('parseLeadFollowUpRequest: length before pattern', () => {
  it('refuses an over-long followUpInterval for its length alone', () => {
    const error = failure({ ...valid, followUpInterval: `${'1'.repeat(65)} days` });
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.details).toEqual([expect.objectContaining({ code: 'too_big', path: ['followUpInterval'] })]);
  });

  it('refuses a phone number longer than 32 characters even when its digits would do', () => {
    const padded = `+1 (415) 555-0199${'-'.repeat(16)}`;
    expect(padded.length).toBe(33);
    expect(isValidPhoneNumber(padded)).toBe(false);
    expect(isValidPhoneNumber(padded.slice(0, 32))).toBe(true);
    expect(failure({ ...valid, phone_number: padded }).code).toBe('INVALID_PHONE_NUMBER');
  });
});
