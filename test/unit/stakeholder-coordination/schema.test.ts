import { AppError } from '../../../shared/platform/errors';
import { isE164PhoneNumber } from '../../../shared/stakeholder-coordination/phone-number';
import { parseStakeholderCoordinationRequest, readStakeholderCoordinationRequest } from '../../../shared/stakeholder-coordination/schema';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const USER = '0c9e8d7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f';

async function refusal(body: unknown): Promise<AppError> {
  try {
    await parseStakeholderCoordinationRequest(body);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the request was accepted');
}

describe('parseStakeholderCoordinationRequest', () => {
  it('accepts the smallest request and fills the defaults', async () => {
    expect(await parseStakeholderCoordinationRequest({ site_id: SITE, lead_id: LEAD })).toEqual({
      site_id: SITE,
      lead_id: LEAD,
      participants: [],
      meeting_agenda: [],
      phone_numbers: [],
      include_context_summary: true,
    });
  });

  it('accepts every field, reads a text agenda as its lines, and gives the same request back when parsed again', async () => {
    const request = await parseStakeholderCoordinationRequest({
      site_id: SITE.toUpperCase(),
      meeting_title: '  Q4 review ',
      meeting_objective: 'Agree on the winter budget',
      participants: ['maya.chen@northwind-outdoor.example', 'Sam Ortiz'],
      meeting_agenda: '1. Winter campaign results\n2. Budget for January\n\n- Hiring a contractor',
      phone_numbers: ['+14155550123', '+442071838750'],
      visitor_id: '3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7',
      lead_id: LEAD,
      userId: USER,
      conversationId: '0190f0a0-0000-7000-8000-000000000001',
      agentId: 'c3d4e5f6-a7b8-4c9d-8e0f-2a3b4c5d6e7f',
      include_context_summary: false,
    });
    expect(request).toMatchObject({
      site_id: SITE,
      meeting_title: 'Q4 review',
      meeting_agenda: ['Winter campaign results', 'Budget for January', 'Hiring a contractor'],
      phone_numbers: ['+14155550123', '+442071838750'],
      include_context_summary: false,
    });
    expect(await parseStakeholderCoordinationRequest(request)).toEqual(request);
  });

  it('accepts the other spelling of a field, and refuses two spellings that disagree', async () => {
    expect(await parseStakeholderCoordinationRequest({ siteId: SITE, user_id: USER })).toMatchObject({ site_id: SITE, userId: USER });
    expect((await refusal({ site_id: SITE, siteId: LEAD, userId: USER })).message).toMatch(
      /site_id and siteId are the same field and disagree/,
    );
  });

  it('treats null as not given', async () => {
    expect(
      await parseStakeholderCoordinationRequest({ site_id: SITE, lead_id: LEAD, meeting_title: null, phone_numbers: null }),
    ).not.toHaveProperty('meeting_title');
  });

  describe('refuses, with INVALID_REQUEST naming the field', () => {
    it.each([
      ['a body that is not an object', [SITE], /JSON object/],
      ['no site_id', { lead_id: LEAD }, /^site_id: Required/],
      ['an empty site_id', { site_id: '', lead_id: LEAD }, /^site_id/],
      ['a site_id that is no UUID', { site_id: 'northwind', lead_id: LEAD }, /^site_id: Invalid UUID/],
      ['a site_id that is a number', { site_id: 42, lead_id: LEAD }, /^site_id/],
      [
        'none of userId, visitor_id, lead_id',
        { site_id: SITE, meeting_title: 'Q4' },
        /At least one of userId, visitor_id or lead_id is required/,
      ],
      ['a malformed lead_id', { site_id: SITE, lead_id: 'lead-1' }, /^lead_id: Invalid UUID/],
      ['a malformed visitor_id', { site_id: SITE, visitor_id: 7 }, /^visitor_id/],
      ['a malformed userId', { site_id: SITE, userId: 'maya' }, /^userId: Invalid UUID/],
      ['a malformed conversationId', { site_id: SITE, lead_id: LEAD, conversationId: 'c-1' }, /^conversationId: Invalid UUID/],
      ['a malformed agentId', { site_id: SITE, lead_id: LEAD, agentId: {} }, /^agentId/],
      ['a meeting_title that is not text', { site_id: SITE, lead_id: LEAD, meeting_title: 12 }, /^meeting_title/],
      ['an empty meeting_title', { site_id: SITE, lead_id: LEAD, meeting_title: '   ' }, /^meeting_title: must not be empty/],
      [
        'an over-long meeting_objective',
        { site_id: SITE, lead_id: LEAD, meeting_objective: 'x'.repeat(2_001) },
        /^meeting_objective: Too big/,
      ],
      ['participants that are not a list', { site_id: SITE, lead_id: LEAD, participants: 'maya' }, /^participants/],
      [
        'a participant that is a broken e-mail address',
        { site_id: SITE, lead_id: LEAD, participants: ['Maya', 'maya@'] },
        /^participants\.1: Invalid e-mail address/,
      ],
      ['a meeting_agenda of numbers', { site_id: SITE, lead_id: LEAD, meeting_agenda: [1, 2] }, /^meeting_agenda/],
      [
        'an agenda list of more than 10,000 characters in all',
        { site_id: SITE, lead_id: LEAD, meeting_agenda: Array.from({ length: 11 }, () => 'x'.repeat(1_000)) },
        /^meeting_agenda: Too big: the agenda has more than 10000 characters/,
      ],
      [
        'participants of more than 4,000 characters in all',
        { site_id: SITE, lead_id: LEAD, participants: Array.from({ length: 50 }, (_, index) => `${index} ${'x'.repeat(90)}`) },
        /^participants: Too big: the participants have more than 4000 characters/,
      ],
      ['phone_numbers that are not a list', { site_id: SITE, lead_id: LEAD, phone_numbers: '+14155550123' }, /^phone_numbers/],
      [
        'an include_context_summary that is not a boolean',
        { site_id: SITE, lead_id: LEAD, include_context_summary: 'yes' },
        /^include_context_summary/,
      ],
    ])('%s', async (_, body, message) => {
      const error = await refusal(body);
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.statusCode).toBe(400);
      expect(error.message).toMatch(message);
    });
  });

  describe('phone numbers: E.164 by libphonenumber-js, the index named', () => {
    it.each([
      ['+1 415 555 0123', 0],
      ['14155550123', 0],
      ['+1555', 0],
      ['+15555555555', 0],
      ['+999123456789', 0],
      ['(415) 555-0123', 0],
    ])('refuses %p', async (number, index) => {
      const error = await refusal({ site_id: SITE, lead_id: LEAD, phone_numbers: [number] });
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.message).toMatch(new RegExp(`^phone_numbers\\.${index}: Invalid phone number`));
      expect(error.details).toEqual([expect.objectContaining({ path: ['phone_numbers', String(index)] })]);
    });

    it('names the index of the first bad number after good ones', async () => {
      expect((await refusal({ site_id: SITE, lead_id: LEAD, phone_numbers: ['+14155550123', '+442071838750', '+44 20'] })).message).toMatch(
        /^phone_numbers\.2:/,
      );
    });

    it.each(['+14155550123', '+442071838750', '+4915112345678', '+33612345678'])('accepts %p', async (number) => {
      expect(isE164PhoneNumber(number)).toBe(true);
      expect((await parseStakeholderCoordinationRequest({ site_id: SITE, lead_id: LEAD, phone_numbers: [number] })).phone_numbers).toEqual([
        number,
      ]);
    });

    it('refuses more than ten numbers', async () => {
      expect((await refusal({ site_id: SITE, lead_id: LEAD, phone_numbers: Array(11).fill('+14155550123') })).message).toMatch(
        /^phone_numbers/,
      );
    });
  });

  describe('the E.164 rule, read on first use', () => {
    it('reads a stored request back at once with the rule given, as the parser read it', async () => {
      const body = { site_id: SITE, lead_id: LEAD, phone_numbers: ['+14155550123'], meeting_agenda: '1. Budget\n2. Results' };
      const parsed = await parseStakeholderCoordinationRequest(body);
      expect(readStakeholderCoordinationRequest(parsed, isE164PhoneNumber)).toEqual(parsed);
      expect(() => readStakeholderCoordinationRequest({ ...parsed, phone_numbers: ['+1555'] }, isE164PhoneNumber)).toThrow(
        /^phone_numbers\.0: Invalid phone number/,
      );
    });
  });
});
