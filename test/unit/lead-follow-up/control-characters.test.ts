import type { ChannelMessages } from '../../../shared/lead-follow-up/message-checks';
import { unsafeCharactersIn } from '../../../shared/platform/text';
import type { SiteInput } from '../../../shared/sites/schema';
import { demoSite, leadFollowUpHarness } from './fixtures';

const withoutCopywriter = (): SiteInput => {
  const site = demoSite();
  site.agents = site.agents!.filter((agent) => agent.role !== 'copywriter');
  return site;
};

const messagesWith = (email: string): ChannelMessages => ({
  email: { title: 'A next step for Trailhead Rentals', message: email, strategy: 'Recap and ask for a call.' },
  messaging_app: {
    title: 'Quick follow-up',
    message: 'Hi Jordan, would a short call this week work for you?',
    strategy: 'Short check-in.',
  },
  notification: { title: 'Next step', message: 'Jordan, your next step with Northwind Outdoor is ready.', strategy: 'Reminder.' },
  web: {
    title: 'Welcome back',
    message: 'Welcome back, Jordan. Book a short call at a time that suits you.',
    strategy: 'Returning visitor.',
  },
});

describe('control characters end to end', () => {
  it('a NUL or bidi override sent in productInterest never reaches the ready-to-send copy', async () => {
    const harness = leadFollowUpHarness({ sites: [withoutCopywriter()], script: [{ offline: true }] });
    const { command, job } = await harness.accept({ productInterest: ['Booking\u0000 calendar\u202E', '\u2066POS sync\u2069'] });

    await harness.deliverSales(job);

    const done = harness.commands.records.get(command.id)!;
    expect(done.status).toBe('completed');
    const messages = done.result!.messages as ChannelMessages;
    expect(messages.email!.message).toContain('Booking calendar and POS sync');
    expect(unsafeCharactersIn(JSON.stringify(done.result))).toEqual([]);
    expect(JSON.stringify(done.result)).not.toContain('\\u0000');
  });

  it('a model answer with a bidi override is repaired once', async () => {
    const bad = messagesWith('Hi Jordan, your \u202Eorder is ready. Would a call this week work?');
    const good = messagesWith('Hi Jordan, your order is ready. Would a call this week work?');
    const harness = leadFollowUpHarness({ sites: [withoutCopywriter()], script: [{ value: bad }, { value: good }] });
    const { command, job } = await harness.accept({});

    await harness.deliverSales(job);

    expect(harness.llmRequests).toHaveLength(2);
    expect(harness.llmRequests[1]!.messages.at(-1)!.content).toContain(
      'email.message: contains control or bidirectional formatting characters (U+202E)',
    );
    expect(harness.commands.records.get(command.id)!.status).toBe('completed');
  });
});
