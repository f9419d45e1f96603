import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { CHANNEL_LIMITS, type Channel } from '../../../shared/lead-follow-up/channels';
import { findPlaceholders } from '../../../shared/lead-follow-up/placeholders';
import { call } from '../../support/http';

/**
 * Without an OpenAI key the runtime uses the offline writer: the demo lead
 * still gets a complete, personalized, placeholder-free result, labelled
 * offline. This runtime's LEAD_FOLLOW_UP_OUTPUT is `follow_up_sequence`.
 */
const ROUTE = '/api/agents/sales/leadFollowUp';
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, LEAD_FOLLOW_UP_OUTPUT: 'follow_up_sequence' },
  });
});
afterAll(() => runtime?.stop());

const post = (body: Record<string, unknown>) =>
  call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, body, headers: { prefer: 'wait=20' } });

describe('lead follow-up with the offline LLM', () => {
  it('writes complete, personalized, placeholder-free messages through both phases, labelled offline', async () => {
    const answer = await post({ siteId: DEMO_SITE, leadId: DEMO_LEAD, output: 'channel_messages', productInterest: ['Booking calendar'] });

    expect(answer.status).toBe(200);
    const data = answer.body.data!;
    expect(data).toMatchObject({ generated_by: 'offline', model: 'offline-writer-v1' });
    expect((data.command_ids as { copywriter: string | null }).copywriter).toEqual(expect.any(String));
    const messages = data.messages as Record<Channel, { title: string; message: string; strategy: string }>;
    expect(Object.keys(messages)).toEqual(['email', 'messaging_app', 'notification', 'web']);
    for (const [channel, item] of Object.entries(messages) as [Channel, { title: string; message: string; strategy: string }][]) {
      expect(item.title.trim()).not.toBe('');
      expect(item.message.trim()).not.toBe('');
      expect(item.strategy.trim()).not.toBe('');
      expect(findPlaceholders(`${item.title}\n${item.message}`)).toEqual([]);
      expect(item.message.length).toBeLessThanOrEqual(CHANNEL_LIMITS[channel].message ?? Infinity);
      expect(item.title.length).toBeLessThanOrEqual(CHANNEL_LIMITS[channel].title ?? Infinity);
      expect(item.message).toContain('Jordan');
    }
    expect(messages.email.message).toContain('Trailhead Rentals');
    expect(messages.email.message).toContain('double-booked gear during peak weekends');
    expect(messages.email.message).toContain('Booking calendar');
  });

  it('answers with a saved follow-up sequence by default (LEAD_FOLLOW_UP_OUTPUT)', async () => {
    const answer = await post({ siteId: DEMO_SITE, leadId: DEMO_LEAD, followUpInterval: '1 week' });

    expect(answer.status).toBe(200);
    const data = answer.body.data!;
    expect(Object.keys(data).sort()).toEqual([
      'command_id',
      'follow_ups',
      'generated_by',
      'leadId',
      'model',
      'saved_to_database',
      'siteId',
    ]);
    expect(data).toMatchObject({ siteId: DEMO_SITE, leadId: DEMO_LEAD, saved_to_database: true, generated_by: 'offline' });
    const followUps = data.follow_ups as Record<string, unknown>[];
    expect(followUps).toHaveLength(4);
    for (const item of followUps) {
      expect(Object.keys(item).sort()).toEqual([
        'content',
        'id',
        'lead_id',
        'metadata',
        'scheduled_for',
        'site_id',
        'status',
        'subject',
        'type',
        'user_id',
      ]);
      expect(item).toMatchObject({
        status: 'scheduled',
        site_id: DEMO_SITE,
        lead_id: DEMO_LEAD,
        user_id: '0c9e8d7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f',
      });
      expect(findPlaceholders(`${item.subject as string}\n${item.content as string}`)).toEqual([]);
      expect(item.scheduled_for).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect(followUps.map((item) => (item.metadata as { sequence_position: number }).sequence_position)).toEqual([1, 2, 3, 4]);
  });
});
