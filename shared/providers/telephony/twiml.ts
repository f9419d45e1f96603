import { cleanText } from '../../platform/text';
import { DEFAULT_RELAY_VOICE, type RelayVoiceSettings } from './relay-settings';

/** Longest welcome greeting spoken when the call connects (characters); a longer one is cut at a word. */
export const MAX_WELCOME_GREETING_LENGTH = 300;

/** What a call runs once answered. */
export interface RelayTwimlInput {
  /** `wss://…/relay?token=…` (see `relayUrlOf`): the call's own relay URL, its one-time token in the query. */
  relayUrl: string;
  /** `<Connect action>`: where Twilio reports the end of the session (the call's `/webhooks/twilio/relay-ended` URL). @default none */
  actionUrl?: string;
  /** How Twilio speaks and listens. @default DEFAULT_RELAY_VOICE */
  voice?: RelayVoiceSettings;
  /** Passed to the relay socket as the custom parameter `command_id`. */
  commandId: string;
  /** The first line the assistant speaks; made plain and bounded here. */
  welcomeGreeting: string;
}

/**
 * TwiML that connects an answered call to this service's ConversationRelay
 * socket, with the command id as a parameter:
 * `<Response><Connect action><ConversationRelay url welcomeGreeting language ttsProvider? voice? transcriptionProvider? speechModel?
 * interruptible welcomeGreetingInterruptible dtmfDetection="true"><Parameter name="command_id" value/>…`.
 * Written here rather than with the twilio library's builder, which loads the
 * whole library; the output is byte for byte the builder's (test/unit/telephony/twiml.test.ts),
 * every attribute XML-escaped.
 */
export function relayTwiml(input: RelayTwimlInput): string {
  const voice = input.voice ?? DEFAULT_RELAY_VOICE;
  const connect = attributes(input.actionUrl === undefined ? {} : { action: input.actionUrl });
  const relay = attributes({
    url: input.relayUrl,
    welcomeGreeting: plainGreeting(input.welcomeGreeting),
    language: voice.language,
    ...(voice.ttsProvider ? { ttsProvider: voice.ttsProvider } : {}),
    ...(voice.voice ? { voice: voice.voice } : {}),
    ...(voice.transcriptionProvider ? { transcriptionProvider: voice.transcriptionProvider } : {}),
    ...(voice.speechModel ? { speechModel: voice.speechModel } : {}),
    interruptible: voice.interruptible,
    welcomeGreetingInterruptible: voice.welcomeGreetingInterruptible,
    // Always on: without it Twilio never sends the `dtmf` messages the assistant keeps.
    dtmfDetection: 'true',
  });
  const parameter = attributes({ name: 'command_id', value: input.commandId });
  return `${XML_DECLARATION}<Response><Connect${connect}><ConversationRelay${relay}><Parameter${parameter}/></ConversationRelay></Connect></Response>`;
}

/** TwiML that hangs up: the answer to the end of a relay session. */
export const HANGUP_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** What the library's builder escapes in a double-quoted attribute value, and how. */
const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '"': '&quot;',
  '\t': '&#x9;',
  '\n': '&#xA;',
  '\r': '&#xD;',
};
const ATTRIBUTE_SPECIAL = /[&<"\t\n\r]/g;
/**
 * Characters XML 1.0 does not allow at all (other C0 controls, lone
 * surrogates, U+FFFE/U+FFFF): dropped, so the document stays well-formed.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** ` name="value"` for each entry, in order, each value escaped. */
function attributes(values: Readonly<Record<string, string>>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${value.replace(NOT_XML, '').replace(ATTRIBUTE_SPECIAL, (char) => ATTRIBUTE_ESCAPES[char]!)}"`)
    .join('');
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
