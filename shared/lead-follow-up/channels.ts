import type { Lead, Site } from '../sites/schema';

/** Channels a site can configure for reaching leads. */
export type ConfiguredChannel = 'email' | 'messaging_app';

/** Every channel a lead follow-up writes for: the configured ones it can use, plus notification and web. */
export type Channel = ConfiguredChannel | 'notification' | 'web';

/** The order channels appear in, in prompts and answers. */
export const CHANNEL_ORDER: readonly Channel[] = ['email', 'messaging_app', 'notification', 'web'];

/** Longest subject of any follow-up (the email title limit). */
export const SUBJECT_LIMIT = 120;

/** Longest content of a follow-up whose type has no tighter limit. */
export const CONTENT_LIMIT = 4_000;

/** Length limits per channel, in characters. */
export const CHANNEL_LIMITS: Readonly<Record<Channel, { title?: number; message?: number }>> = {
  email: { title: 120 },
  messaging_app: { message: 1_000 },
  notification: { message: 240 },
  web: {},
};

/** Channels the site has switched on (`enabled: true`), in channel order. */
export function configuredChannels(site: Site): ConfiguredChannel[] {
  const channels: ConfiguredChannel[] = [];
  if (site.channels?.email?.enabled === true) channels.push('email');
  if (site.channels?.messaging_app?.enabled === true) channels.push('messaging_app');
  return channels;
}

/** What the stored lead (and a valid `phone_number`) offers for reaching them. */
export interface LeadReach {
  hasEmail: boolean;
  hasPhone: boolean;
}

/**
 * How the lead can be reached. Only the stored lead counts, plus the
 * request's `phone_number` (already validated) for messaging_app; a caller's
 * `leadData` never does.
 */
export function leadReach(lead: Lead, phoneNumber: string | undefined): LeadReach {
  return {
    hasEmail: Boolean(lead.email?.trim()),
    hasPhone: Boolean(lead.phone?.trim() || phoneNumber?.trim()),
  };
}

/**
 * The channels to write for: email when the site has email and the lead an
 * address; messaging_app when the site has it and there is a phone;
 * notification and web always.
 */
export function availableChannels(configured: readonly ConfiguredChannel[], reach: LeadReach): Channel[] {
  const channels: Channel[] = [];
  if (configured.includes('email') && reach.hasEmail) channels.push('email');
  if (configured.includes('messaging_app') && reach.hasPhone) channels.push('messaging_app');
  channels.push('notification', 'web');
  return channels;
}

/** True when at least one configured channel can reach the lead. */
export function hasReachableChannel(channels: readonly Channel[]): boolean {
  return channels.includes('email') || channels.includes('messaging_app');
}

/** The number to use for messaging_app: the request's valid `phone_number`, else the stored phone. */
export function messagingNumber(lead: Lead, phoneNumber: string | undefined): string | undefined {
  return phoneNumber?.trim() || lead.phone?.trim() || undefined;
}
