/**
 * The lead follow-up's fixed terms: the answers it gives, the follow-up
 * types, a sequence's length. Apart from the request schema (schema.ts),
 * so what only names them (stored steps, settings, progress) does not build
 * the request's schemas at its cold start.
 */

/** The two answers a lead follow-up can give (response variants B and A). */
export const OUTPUTS = ['channel_messages', 'follow_up_sequence'] as const;
export type LeadFollowUpOutput = (typeof OUTPUTS)[number];

/** Items in a sequence (`output: "follow_up_sequence"`). */
export const MIN_SEQUENCE = 3;
export const MAX_SEQUENCE = 5;

/** The follow-up types a caller may ask for (`followUpType`) and a sequence may contain. */
export const FOLLOW_UP_TYPES = [
  'email',
  'call',
  'meeting',
  'messaging_app',
  'professional_network_message',
  'video_message',
  'notification',
] as const;
export type FollowUpType = (typeof FOLLOW_UP_TYPES)[number];

export function isFollowUpType(value: string): value is FollowUpType {
  return (FOLLOW_UP_TYPES as readonly string[]).includes(value);
}
