import { NO_CONTACTS, withoutForeignContacts, type AllowedContacts } from './allowed-contacts';
import { CHANNEL_LIMITS, type Channel } from './channels';
import type { WritingContext } from './context';
import type { ChannelMessage, ChannelMessages } from './message-checks';
import { lazy } from '../platform/memo';
import { sanitizeValue } from './placeholders';
import type { FollowUpType } from './vocabulary';
import { SUBJECT_LIMIT } from './channels';
import type { WrittenFollowUp, WrittenSequence } from './sequence';

/**
 * The deterministic writer used when no model is configured (generated_by
 * "offline"). It writes real, ready-to-send English copy from the lead, site
 * and agent data only: no slots to fill, no invented facts, and no link,
 * e-mail address or phone number the stored data does not hold.
 */

/** Languages the offline writer writes in. */
export const OFFLINE_LANGUAGES: readonly string[] = ['en'];

interface Facts {
  first: string;
  fullName: string;
  company: string | null;
  /** "Trailhead Rentals", or "your team" without a company. */
  companyOrTeam: string;
  position: string | null;
  site: string;
  agent: string;
  pain: string | null;
  secondPain: string | null;
  budget: string | null;
  products: string | null;
  lastInteraction: { type: string; date: string; summary: string } | null;
  cta: string;
  shortCta: string;
  timeNote: string;
}

/** Channel messages for every channel of the context. */
export function offlineChannelMessages(context: WritingContext): ChannelMessages {
  const facts = factsOf(context);
  const allowed = allowedContactsIn(context);
  const writers: Record<Channel, (facts: Facts) => ChannelMessage> = {
    email: emailMessage,
    messaging_app: messagingMessage,
    notification: notificationMessage,
    web: webMessage,
  };
  return Object.fromEntries(
    context.channels.map((channel) => {
      const { title, message, strategy } = fitted(channel, writers[channel](facts));
      return [channel, { title: withoutForeignContacts(title, allowed), message: withoutForeignContacts(message, allowed), strategy }];
    }),
  );
}

/** A written sequence for the planned types. */
export function offlineSequence(context: WritingContext, types: readonly FollowUpType[]): WrittenSequence {
  const facts = factsOf(context);
  const allowed = allowedContactsIn(context);
  return {
    follow_ups: types.map((type, index) => {
      const item = sequenceItem(facts, type, index, types);
      return { ...item, subject: withoutForeignContacts(item.subject, allowed), content: withoutForeignContacts(item.content, allowed) };
    }),
  };
}

/**
 * The copywriter's pass, offline: a warmer, plainer version of each channel's
 * title and message that keeps the limits (the strategy is kept by the caller).
 */
export function offlineRefinement(
  context: WritingContext,
  messages: ChannelMessages,
): Partial<Record<Channel, { title: string; message: string }>> {
  const facts = factsOf(context);
  const refined: Partial<Record<Channel, { title: string; message: string }>> = {};
  for (const channel of context.channels) {
    const original = messages[channel];
    if (!original) continue;
    const limits = CHANNEL_LIMITS[channel];
    let title = original.title.trim();
    const personal = personalTitle(title, facts.first);
    if (personal && personal.length <= (limits.title ?? SUBJECT_LIMIT)) title = personal;
    let message = original.message.trim().replace(/[ \t]+/g, ' ');
    if (channel === 'email') message = warmEmail(message);
    if (limits.message !== undefined && message.length > limits.message) message = original.message.trim();
    refined[channel] = { title, message };
  }
  return refined;
}

/** The contacts the copy may carry; none for a context kept before they were recorded. */
function allowedContactsIn(context: WritingContext): AllowedContacts {
  return context.allowed_contacts ?? NO_CONTACTS;
}

function factsOf(context: WritingContext): Facts {
  const allowed = allowedContactsIn(context);
  // A value is cut to a few times what is used of it before it is read, so a huge stored value costs no more than a short one.
  const clean = (value: string, max: number) => cleanValue(withoutForeignContacts(value.slice(0, max * 4), allowed), max);
  const fullName = clean(context.lead.name, 120) || 'there';
  const company = context.lead.company ? clean(context.lead.company, 120) || null : null;
  const last = context.interactions.at(-1);
  const contactTime = context.preferences.contact_time;
  const cta = callToAction(context.lead.lead_stage, company);
  return {
    first: fullName.split(' ')[0] ?? fullName,
    fullName,
    company,
    companyOrTeam: company ?? 'your team',
    position: context.lead.position ? clean(context.lead.position, 120) || null : null,
    site: clean(context.site.name, 120),
    agent: clean(context.agent.name.replace(/\([^()]*\)/g, ' '), 80) || clean(context.site.name, 80),
    pain: context.lead.pain_points[0] ? clean(context.lead.pain_points[0], 120) || null : null,
    secondPain: context.lead.pain_points[1] ? clean(context.lead.pain_points[1], 120) || null : null,
    budget: context.lead.budget_range ? clean(context.lead.budget_range, 80) || null : null,
    products:
      listOf(
        context.productInterest
          .slice(0, 3)
          .map((item) => clean(item, 80))
          .filter(Boolean),
      ) || null,
    lastInteraction: last
      ? {
          type: clean(last.type.replace(/_/g, ' '), 40).toLowerCase(),
          date: readableDate(clean(last.date, 40)),
          summary: sentence(clean(last.summary, 240)),
        }
      : null,
    cta: cta.long,
    shortCta: cta.short,
    timeNote: typeof contactTime === 'string' && contactTime.trim() ? `, ideally ${clean(contactTime, 40)}` : '',
  };
}

function callToAction(stage: string | null, company: string | null): { long: string; short: string } {
  const value = stage?.toLowerCase() ?? '';
  if (/(proposal|negotiat|closing|decision|contract)/.test(value)) {
    return { long: 'a short call to go over the proposal and any open questions', short: 'a call about the proposal' };
  }
  if (/^(new|lead|cold|unqualified|subscriber|visitor)$/.test(value)) {
    return { long: 'a short introductory call', short: 'a short intro call' };
  }
  return { long: `a 20-minute call to go through the details for ${company ?? 'your team'}`, short: 'a 20-minute call' };
}

function emailMessage(facts: Facts): ChannelMessage {
  const paragraphs = [`Hi ${facts.first},`, opening(facts)];
  if (facts.lastInteraction) paragraphs.push(recap(facts));
  if (facts.products)
    paragraphs.push(`You showed interest in ${facts.products}; I can show you how it would work for ${facts.companyOrTeam}.`);
  if (facts.secondPain) paragraphs.push(`We can also address ${facts.secondPain} in the same setup.`);
  if (facts.budget) paragraphs.push(`We can shape the proposal to fit your budget of ${facts.budget}.`);
  paragraphs.push(`Would you have time for ${facts.cta}${facts.timeNote}?`, `Best regards,\n${facts.agent}\n${facts.site}`);
  return {
    title: facts.company ? `${facts.first}, a next step for ${facts.company}` : `${facts.first}, a next step with ${facts.site}`,
    message: paragraphs.join('\n\n'),
    strategy: facts.pain
      ? `Lead with the main pain point (${facts.pain}), connect it to the last exchange, and ask for one clear next step: ${facts.cta}.`
      : `Thank ${facts.first} for the interest, connect to the last exchange, and ask for one clear next step: ${facts.cta}.`,
  };
}

function messagingMessage(facts: Facts): ChannelMessage {
  const parts = [`Hi ${facts.first}, this is ${facts.agent} from ${facts.site}.`];
  if (facts.lastInteraction) parts.push(`Following up on our ${facts.lastInteraction.type} of ${facts.lastInteraction.date}.`);
  parts.push(
    facts.pain ? `We can help ${facts.companyOrTeam} with ${facts.pain}.` : `We would like to help ${facts.companyOrTeam} get started.`,
  );
  parts.push(`Would ${facts.shortCta} this week work for you${facts.timeNote}?`);
  return {
    title: `Quick follow-up from ${facts.site}`,
    message: parts.join(' '),
    strategy: `Short, personal check-in from ${facts.agent} that names the main need and asks one yes-or-no question about a call.`,
  };
}

function notificationMessage(facts: Facts): ChannelMessage {
  const candidates = [
    facts.pain
      ? `${facts.first}, ${facts.site} has ideas for ${facts.companyOrTeam} on ${facts.pain}. Reply to book ${facts.shortCta}.`
      : `${facts.first}, ${facts.site} has a next step ready for ${facts.companyOrTeam}. Reply to book ${facts.shortCta}.`,
    `${facts.first}, ${facts.site} has a next step ready for you. Reply to book ${facts.shortCta}.`,
    `${facts.first}, your next step with ${facts.site} is ready.`,
  ];
  const message = candidates.find((text) => text.length <= CHANNEL_LIMITS.notification.message!) ?? cleanValue(candidates[2]!, 240);
  return {
    title: `Next step with ${facts.site}`,
    message,
    strategy: 'One-line reminder that points to the main need and invites a reply.',
  };
}

function webMessage(facts: Facts): ChannelMessage {
  const parts = [`Welcome back, ${facts.first}.`];
  parts.push(
    facts.pain
      ? `See how ${facts.site} can help ${facts.companyOrTeam} with ${facts.pain}.`
      : `See how ${facts.site} can help ${facts.companyOrTeam}.`,
  );
  if (facts.products) parts.push(`Your picks so far: ${facts.products}.`);
  parts.push(`Book ${facts.shortCta} at a time that suits you.`);
  return {
    title: facts.company ? `${facts.company}: how ${facts.site} can help` : `How ${facts.site} can help`,
    message: parts.join(' '),
    strategy: `On-site message for a returning visitor: restate the value for ${facts.companyOrTeam} and offer to book a call.`,
  };
}

function opening(facts: Facts): string {
  return facts.pain
    ? `Thank you for your interest in ${facts.site}. You mentioned that ${facts.pain} is a challenge for ${facts.companyOrTeam}, and that is exactly where we can help.`
    : `Thank you for your interest in ${facts.site}. I would like to show you how we can support ${facts.companyOrTeam}.`;
}

function recap(facts: Facts): string {
  const last = facts.lastInteraction!;
  const note = last.summary.replace(/[.!\s]+$/, '');
  const lowered = /^[A-Z][a-z]/.test(note) ? note.charAt(0).toLowerCase() + note.slice(1) : note;
  return lowered ? `Picking up from our ${last.type} on ${last.date} (${lowered}).` : `Picking up from our ${last.type} on ${last.date}.`;
}

const TEMPLATES = ['recap_and_next_step', 'pain_point_focus', 'value_and_fit', 'meeting_request', 'final_check_in'] as const;
type Template = (typeof TEMPLATES)[number];

function sequenceItem(facts: Facts, type: FollowUpType, index: number, types: readonly FollowUpType[]): WrittenFollowUp {
  const template: Template =
    type === 'meeting' ? 'meeting_request' : index === types.length - 1 && index > 0 ? 'final_check_in' : TEMPLATES[Math.min(index, 3)]!;
  const core = coreLine(facts, template);
  const ask =
    template === 'final_check_in' || template === 'meeting_request' ? '' : `Would you have time for ${facts.cta}${facts.timeNote}?`;
  const next = types[index + 1];
  return {
    subject: cleanValue(subjectOf(facts, template), SUBJECT_LIMIT),
    content: contentOf(facts, type, core, ask),
    next_steps: next
      ? `If ${facts.first} replies, book ${facts.shortCta}; otherwise send follow-up ${index + 2} (${next.replace(/_/g, ' ')}) as scheduled.`
      : `If ${facts.first} does not reply, pause outreach and review the lead with the sales team.`,
    template,
  };
}

function subjectOf(facts: Facts, template: Template): string {
  switch (template) {
    case 'recap_and_next_step':
      return `${facts.first}, following up from ${facts.site}`;
    case 'pain_point_focus':
      return facts.pain ? `${facts.companyOrTeam}: tackling ${facts.pain}` : `${facts.companyOrTeam}: where ${facts.site} can help`;
    case 'value_and_fit':
      return `What ${facts.site} can do for ${facts.companyOrTeam}`;
    case 'meeting_request':
      return `Time for a short meeting, ${facts.first}?`;
    case 'final_check_in':
      return `Checking in one last time, ${facts.first}`;
  }
}

function coreLine(facts: Facts, template: Template): string {
  switch (template) {
    case 'recap_and_next_step':
      return facts.lastInteraction ? `${opening(facts)} ${recap(facts)}` : opening(facts);
    case 'pain_point_focus':
      return facts.secondPain
        ? `We can help ${facts.companyOrTeam} with ${facts.secondPain} as well as ${facts.pain}, in one setup.`
        : facts.pain
          ? `We can help ${facts.companyOrTeam} with ${facts.pain}, step by step and without disrupting your day-to-day work.`
          : `We can help ${facts.companyOrTeam} get set up step by step, without disrupting your day-to-day work.`;
    case 'value_and_fit': {
      const parts = [];
      if (facts.products) parts.push(`You showed interest in ${facts.products}.`);
      parts.push(
        facts.budget ? `We can shape a plan that fits your budget of ${facts.budget}.` : `We can shape a plan around your priorities.`,
      );
      return parts.join(' ');
    }
    case 'meeting_request':
      return `I would like to invite you to a short meeting about ${facts.companyOrTeam}${facts.timeNote}. Would that work for you?`;
    case 'final_check_in':
      return `If now is not the right time, just let me know and I will check back later. ${facts.site} is here whenever ${facts.companyOrTeam} is ready.`;
  }
}

function contentOf(facts: Facts, type: FollowUpType, core: string, ask: string): string {
  const body = [core, ask].filter(Boolean).join(' ');
  switch (type) {
    case 'email':
      return [`Hi ${facts.first},`, core, ask, `Best regards,\n${facts.agent}\n${facts.site}`].filter(Boolean).join('\n\n');
    case 'messaging_app':
    case 'professional_network_message':
      return clampTo(`Hi ${facts.first}, ${facts.agent} from ${facts.site} here. ${body}`, CHANNEL_LIMITS.messaging_app.message!);
    case 'call': {
      const who = [facts.position, facts.company].filter(Boolean).join(', ');
      return `Call ${facts.fullName}${who ? ` (${who})` : ''}. Open with: ${core} Goal of the call: agree on a clear next step for ${facts.companyOrTeam}.`;
    }
    case 'meeting':
      return `Hi ${facts.first},\n\n${body} The agenda: your goals for ${facts.companyOrTeam}, how ${facts.site} would fit, and clear next steps.\n\n${facts.agent}, ${facts.site}`;
    case 'video_message':
      return `Video script, about one minute: Hi ${facts.first}, I am ${facts.agent} from ${facts.site}. ${body}`;
    case 'notification':
      return clampTo(
        `${facts.first}, ${facts.site} has a next step ready for ${facts.companyOrTeam}. Reply to book ${facts.shortCta}.`,
        CHANNEL_LIMITS.notification.message!,
      );
  }
}

function warmEmail(message: string): string {
  const closing = 'Thanks for reading, and I look forward to hearing from you.';
  if (message.includes(closing)) return message;
  const signOff = message.lastIndexOf('\n\nBest regards,');
  if (signOff < 0) return `${message}\n\n${closing}`;
  const body = message.slice(0, signOff);
  return `${body}\n\n${closing}${message.slice(signOff)}`;
}

/** Keeps a message within its channel's limits (a long lead-supplied value may push it over). */
function fitted(channel: Channel, message: ChannelMessage): ChannelMessage {
  const limits = CHANNEL_LIMITS[channel];
  return {
    title: limits.title ? clampTo(message.title, limits.title) : message.title,
    message: limits.message ? clampTo(message.message, limits.message) : message.message,
    strategy: message.strategy,
  };
}

function cleanValue(value: string, max: number): string {
  return clampTo(sanitizeValue(value), max);
}

/** Cuts at a word boundary so the text fits in `max` characters. */
function clampTo(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

function sentence(value: string): string {
  const trimmed = value.trim();
  if (!trimmed) return trimmed;
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Words a title may start with that read well after "Jordan, "; a title starting with a name stays as it is. */
const PLAIN_OPENERS = new Set(['a', 'an', 'the', 'quick', 'next', 'your', 'how', 'what', 'time', 'checking', 'following', 'one', 'new']);

function personalTitle(title: string, first: string): string | undefined {
  if (title.includes(first)) return undefined;
  const [opener = ''] = title.split(/\s+/, 1);
  if (!PLAIN_OPENERS.has(opener.toLowerCase())) return undefined;
  return `${first}, ${opener.toLowerCase()}${title.slice(opener.length)}`;
}

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * Built once (`toLocaleDateString` with options builds a new formatter on every call), on first use: the first Intl
 * object a process builds starts ICU, about as much work as the rest of a cold start, and only the offline writer dates.
 */
const dateFormat = lazy(() => new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' }));

function readableDate(cleaned: string): string {
  if (!/^\d{4}-\d{2}-\d{2}/.test(cleaned)) return cleaned;
  const date = new Date(cleaned.length === 10 ? `${cleaned}T00:00:00Z` : cleaned);
  if (Number.isNaN(date.getTime())) return cleaned;
  return dateFormat().format(date);
}
