import twilio from 'twilio';
import { cleanText } from '../../platform/text';

/** Longest welcome greeting spoken when the call connects (characters); a longer one is cut at a word. */
export const MAX_WELCOME_GREETING_LENGTH = 300;

/** Where the ConversationRelay socket of this service listens, below PUBLIC_BASE_URL. */
const RELAY_PATH = '/relay';

/** What a call runs once answered. */
export interface RelayTwimlInput {
  /** `wss://…/relay` (see `relayUrlOf`). */
  relayUrl: string;
  /** Passed to the relay socket as the custom parameter `command_id`. */
  commandId: string;
  /** The first line the assistant speaks; made plain and bounded here. */
  welcomeGreeting: string;
}

/**
 * TwiML that connects an answered call to this service's ConversationRelay
 * socket, with the command id as a parameter:
 * `<Response><Connect><ConversationRelay url welcomeGreeting><Parameter name="command_id" value/>…`.
 * Built with the twilio library's TwiML builder, so every attribute is XML-escaped.
 */
export function relayTwiml(input: RelayTwimlInput): string {
  const response = new twilio.twiml.VoiceResponse();
  const relay = response.connect().conversationRelay({ url: input.relayUrl, welcomeGreeting: plainGreeting(input.welcomeGreeting) });
  relay.parameter({ name: 'command_id', value: input.commandId });
  return response.toString();
}

/**
 * The relay socket's URL for a public base URL: `wss://` for an `https://`
 * base, `ws://` for an `http://` one (the local runtime), the base's path
 * prefix kept (`https://host/prod` → `wss://host/prod/relay`).
 */
export function relayUrlOf(publicBaseUrl: string): string {
  const url = new URL(publicUrlOf(publicBaseUrl, RELAY_PATH));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/**
 * An absolute URL of this service from PUBLIC_BASE_URL and a path (with an
 * optional query), joining the base's path prefix rather than replacing it.
 * Throws on a base that is not an http(s) URL.
 */
export function publicUrlOf(publicBaseUrl: string, pathAndQuery: string): string {
  const base = new URL(publicBaseUrl);
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error('PUBLIC_BASE_URL must be an http(s) URL');
  const prefix = base.pathname.replace(/\/+$/, '');
  const suffix = pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`;
  return `${base.origin}${prefix}${suffix}`;
}

const MARKUP = /<[^>]*>/g;
const DECORATION = /[*_#`~|[\]{}<>\\]/g;
const SPACES = /\s+/g;
const SPACE_BEFORE_PUNCTUATION = / ([,.;:!?])/g;

/**
 * The greeting as plain speech: no tags, markdown marks, control characters
 * or runs of white space, at most MAX_WELCOME_GREETING_LENGTH characters (cut
 * at the last word that fits).
 */
export function plainGreeting(text: string): string {
  const plain = cleanText(text)
    .replace(MARKUP, ' ')
    .replace(DECORATION, ' ')
    .replace(SPACES, ' ')
    .replace(SPACE_BEFORE_PUNCTUATION, '$1')
    .trim();
  if (plain.length <= MAX_WELCOME_GREETING_LENGTH) return plain;
  const cut = plain.slice(0, MAX_WELCOME_GREETING_LENGTH + 1);
  const lastSpace = cut.lastIndexOf(' ');
  return (lastSpace > MAX_WELCOME_GREETING_LENGTH / 2 ? cut.slice(0, lastSpace) : cut.slice(0, MAX_WELCOME_GREETING_LENGTH)).trim();
}
