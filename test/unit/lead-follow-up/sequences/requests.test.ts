import { AppError } from '../../../../shared/platform/errors';
import { parseFollowUpEdit } from '../../../../shared/lead-follow-up/sequences/edit';
import { parseLeadEventRequest } from '../../../../shared/lead-follow-up/sequences/lead-events';
import { decodeCursor, encodeCursor } from '../../../../shared/lead-follow-up/sequences/list';
import { canMove, stepView } from '../../../../shared/lead-follow-up/sequences/step';
import { SITE, step, T0 } from './steps';

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseFollowUpEdit', () => {
  it('takes copy, a time, or an end, with its reason', () => {
    expect(parseFollowUpEdit({ subject: '  New subject ', content: 'Hi Jordan,\r\nthanks.' })).toEqual({
      subject: 'New subject',
      content: 'Hi Jordan,\nthanks.',
    });
    expect(parseFollowUpEdit({ scheduled_for: '2026-12-03T10:00:00+01:00' })).toEqual({ scheduled_for: '2026-12-03T10:00:00+01:00' });
    expect(parseFollowUpEdit({ status: 'skipped', reason: 'on holiday' })).toEqual({ status: 'skipped', reason: 'on holiday' });
    expect(parseFollowUpEdit({ status: 'sent' })).toEqual({ status: 'sent' });
  });

  it.each([
    ['an unknown field', { content: 'Hi', channel: 'sms' }, 'unrecognized_keys', []],
    ['nothing to change', {}, 'custom', []],
    ['a status a caller may not set', { status: 'due' }, 'invalid_value', ['status']],
    ['a time without a zone', { scheduled_for: '2026-12-03T10:00:00' }, 'invalid_format', ['scheduled_for']],
    ['a time and an end together', { scheduled_for: '2026-12-03T10:00:00Z', status: 'cancelled' }, 'custom', ['scheduled_for']],
    ['a reason without an end', { content: 'Hi', reason: 'why' }, 'custom', ['reason']],
    ['empty copy', { content: '   ' }, 'too_small', ['content']],
    ['a subject too long', { subject: 'x'.repeat(121) }, 'too_big', ['subject']],
  ])('refuses %s with INVALID_REQUEST and its details', (_name, body, code, path) => {
    const error = refusal(() => parseFollowUpEdit(body));
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.details).toEqual(expect.arrayContaining([expect.objectContaining({ code, path })]));
  });

  it('refuses a body that is not an object', () => {
    expect(refusal(() => parseFollowUpEdit([])).code).toBe('INVALID_REQUEST');
  });
});

describe('parseLeadEventRequest', () => {
  it('reads the nested and the flat form alike, and fills in the time and a bounce channel', () => {
    const nested = parseLeadEventRequest(
      { site_id: SITE.toUpperCase(), event: { type: 'replied', channel: 'email', summary: 'Yes, call me' } },
      T0,
    );
    expect(nested).toEqual({
      siteId: SITE,
      event: { type: 'replied', occurred_at: new Date(T0).toISOString(), channel: 'email', summary: 'Yes, call me' },
    });
    const flat = parseLeadEventRequest({ siteId: SITE, type: 'bounced', occurred_at: '2026-12-01T10:00:00+01:00' }, T0);
    expect(flat).toEqual({
      siteId: SITE,
      event: { type: 'bounced', occurred_at: new Date(T0).toISOString(), channel: 'email', summary: null },
    });
  });

  it.each([
    ['no site', { event: { type: 'replied' } }, 'INVALID_REQUEST'],
    ['an unknown event type', { site_id: SITE, event: { type: 'forwarded' } }, 'INVALID_REQUEST'],
    ['an unknown field', { site_id: SITE, event: { type: 'replied', mood: 'happy' } }, 'INVALID_REQUEST'],
    ['a time in the future', { site_id: SITE, type: 'opened', occurred_at: new Date(T0 + 3_600_000).toISOString() }, 'INVALID_REQUEST'],
    ['a site id that is no UUID', { site_id: 'site-1', type: 'opened' }, 'INVALID_INPUT'],
    [
      'two spellings of the site that disagree',
      { site_id: SITE, siteId: '6c1a2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', type: 'opened' },
      'INVALID_REQUEST',
    ],
    ['siteId as a list, beside the same site_id', { site_id: SITE, siteId: [SITE], type: 'opened' }, 'INVALID_REQUEST'],
    ['siteId as a list alone', { siteId: [SITE], type: 'opened' }, 'INVALID_REQUEST'],
  ])('refuses %s', (_name, body, code) => {
    expect(refusal(() => parseLeadEventRequest(body, T0)).code).toBe(code);
  });
});

describe('list cursors', () => {
  it('give back where a page ended', () => {
    const cursor = { sortKey: `2026-12-02T09:00:00.000Z#${step(1).id}`, id: step(1).id };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it.each([
    'not-base64-json',
    Buffer.from('["x","y"]').toString('base64url'),
    Buffer.from(JSON.stringify(['2026#abc', step(1).id])).toString('base64url'),
  ])('refuse one this API did not give (%s)', (text) => {
    expect(refusal(() => decodeCursor(text))).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [expect.objectContaining({ path: ['cursor'] })],
    });
  });
});

describe('steps', () => {
  it('move only forward: nothing leaves sent, skipped or cancelled', () => {
    expect(canMove('scheduled', 'due')).toBe(true);
    expect(canMove('due', 'sent')).toBe(true);
    expect(canMove('due', 'scheduled')).toBe(false);
    for (const final of ['sent', 'skipped', 'cancelled'] as const) {
      for (const to of ['scheduled', 'due', 'sent', 'skipped', 'cancelled'] as const) expect(canMove(final, to)).toBe(false);
    }
  });

  it('show no tenant or bookkeeping', () => {
    const view = stepView({ ...step(2), expires_at: 1, adapted_by: { event_id: 'e', event_type: 'clicked', at: 'x' } });
    expect(view).toMatchObject({
      id: step(2).id,
      channel: 'email',
      type: 'email',
      sequence_position: 2,
      status: 'scheduled',
      due_at: null,
      updated_at: step(2).created_at,
    });
    expect(JSON.stringify(view)).not.toMatch(/tenant|expires_at|adapted_by/);
  });
});
