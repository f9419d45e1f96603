import fc from 'fast-check';
// The builder the package root exposes as twilio.twiml.VoiceResponse, without loading the whole REST client.
import VoiceResponse from 'twilio/lib/twiml/VoiceResponse.js';
import { publicUrlOf, relayUrlOf } from '../../../shared/providers/telephony/public-urls';
import {
  DEFAULT_RELAY_VOICE,
  RELAY_INTERRUPTIONS,
  RELAY_TRANSCRIPTION_PROVIDERS,
  RELAY_TTS_PROVIDERS,
  type RelayVoiceSettings,
} from '../../../shared/providers/telephony/relay-settings';
import { HANGUP_TWIML, MAX_WELCOME_GREETING_LENGTH, plainGreeting, relayTwiml } from '../../../shared/providers/telephony/twiml';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Reads the TwiML strictly: with every double-quoted attribute value taken
 * out, the markup must be exactly the expected elements (so no value broke
 * out of its quotes), and each value decodes from XML entities.
 */
function parse(xml: string) {
  const values: string[] = [];
  const skeleton = xml.replace(/="([^"<]*)"/g, (_, raw: string) => {
    values.push(
      raw.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity: string, name: string) =>
        name.startsWith('#x')
          ? String.fromCodePoint(parseInt(name.slice(2), 16))
          : name.startsWith('#')
            ? String.fromCodePoint(Number(name.slice(1)))
            : (ENTITIES[name] ?? entity),
      ),
    );
    return '=""';
  });
  expect(skeleton).toBe(
    '<?xml version="" encoding=""?><Response><Connect action=""><ConversationRelay url="" welcomeGreeting="" language="" interruptible="" ' +
      'welcomeGreetingInterruptible="" dtmfDetection=""><Parameter name="" value=""/></ConversationRelay></Connect></Response>',
  );
  const [, , action, url, welcomeGreeting, , , , dtmfDetection, name, value] = values;
  return { action, url, welcomeGreeting, dtmfDetection, name, value };
}

describe('relayTwiml', () => {
  it('connects the call to the relay socket with the command id as a parameter, keypresses detected, the end reported', () => {
    const xml = relayTwiml({
      relayUrl: 'wss://hooks.example.com/relay?token=abc',
      actionUrl: 'https://hooks.example.com/webhooks/twilio/relay-ended?command_id=cmd_123',
      commandId: 'cmd_123',
      welcomeGreeting: 'Hello, this is Switchboard.',
    });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Connect action="https://hooks.example.com/webhooks/twilio/relay-ended?command_id=cmd_123">' +
        '<ConversationRelay url="wss://hooks.example.com/relay?token=abc" welcomeGreeting="Hello, this is Switchboard." language="en-US" ' +
        'interruptible="any" welcomeGreetingInterruptible="any" dtmfDetection="true"><Parameter name="command_id" value="cmd_123"/>' +
        '</ConversationRelay></Connect></Response>',
    );
  });

  it('sets the voice, the providers and the interruptions from the settings', () => {
    const xml = relayTwiml({
      relayUrl: 'wss://h.example.com/relay?token=t',
      commandId: 'c',
      welcomeGreeting: 'Hi',
      voice: {
        language: 'es-ES',
        ttsProvider: 'Google',
        voice: 'es-ES-Neural2-B',
        transcriptionProvider: 'Deepgram',
        speechModel: 'nova-3-general',
        interruptible: 'speech',
        welcomeGreetingInterruptible: 'none',
      },
    });
    expect(xml).toContain(
      '<Connect><ConversationRelay url="wss://h.example.com/relay?token=t" welcomeGreeting="Hi" language="es-ES" ttsProvider="Google" ' +
        'voice="es-ES-Neural2-B" transcriptionProvider="Deepgram" speechModel="nova-3-general" interruptible="speech" ' +
        'welcomeGreetingInterruptible="none" dtmfDetection="true">',
    );
  });

  it('escapes every attribute, so no input can change the document', () => {
    const hostile = `x" /><Hangup/><Say a="<&>'`;
    const xml = relayTwiml({
      relayUrl: 'wss://h.example.com/relay?a=1&b="2"',
      actionUrl: `https://h.example.com/x?c=${hostile}`,
      commandId: hostile,
      welcomeGreeting: 'Tom & "Jerry"',
    });
    expect(parse(xml)).toEqual({
      action: `https://h.example.com/x?c=${hostile}`,
      url: 'wss://h.example.com/relay?a=1&b="2"',
      welcomeGreeting: 'Tom & "Jerry"',
      dtmfDetection: 'true',
      name: 'command_id',
      value: hostile,
    });
  });

  it('hangs up at the end of the session', () => {
    const response = new VoiceResponse();
    response.hangup();
    expect(HANGUP_TWIML).toBe(response.toString());
  });

  it('speaks a plain, bounded greeting: no tags, markdown marks, controls or line breaks', () => {
    const xml = relayTwiml({
      relayUrl: 'wss://h.example.com/relay',
      commandId: 'c',
      actionUrl: 'https://h.example.com/webhooks/twilio/relay-ended',
      welcomeGreeting: `**Hello** <speak>team</speak>,\n\n# agenda:\u0007 ${'budget review '.repeat(60)}`,
    });
    const greeting = parse(xml).welcomeGreeting ?? '';
    expect(greeting.startsWith('Hello team, agenda: budget review')).toBe(true);
    expect(greeting.length).toBeLessThanOrEqual(MAX_WELCOME_GREETING_LENGTH);
    expect(greeting).not.toMatch(/[<>*#\n]/);
    expect(greeting).not.toContain(String.fromCharCode(7));
    expect(greeting.endsWith('review')).toBe(true);
  });
});

/** The same document from the twilio library's TwiML builder, its attributes given in the same order. */
function libraryTwiml(relayUrl: string, commandId: string, greeting: string, actionUrl?: string, voice = DEFAULT_RELAY_VOICE): string {
  const response = new VoiceResponse();
  response
    .connect(actionUrl === undefined ? {} : { action: actionUrl })
    .conversationRelay({
      url: relayUrl,
      welcomeGreeting: plainGreeting(greeting),
      language: voice.language,
      ...(voice.ttsProvider ? { ttsProvider: voice.ttsProvider } : {}),
      ...(voice.voice ? { voice: voice.voice } : {}),
      ...(voice.transcriptionProvider ? { transcriptionProvider: voice.transcriptionProvider } : {}),
      ...(voice.speechModel ? { speechModel: voice.speechModel } : {}),
      interruptible: voice.interruptible,
      welcomeGreetingInterruptible: voice.welcomeGreetingInterruptible,
      dtmfDetection: true,
    })
    .parameter({ name: 'command_id', value: commandId });
  return response.toString();
}

/** Any relay settings the readers let through. */
const voices: fc.Arbitrary<RelayVoiceSettings> = fc.record(
  {
    language: fc.constantFrom('en-US', 'es-ES', 'fr-FR'),
    ttsProvider: fc.constantFrom(...RELAY_TTS_PROVIDERS),
    voice: fc.stringMatching(/^[A-Za-z0-9._-]{1,20}$/),
    transcriptionProvider: fc.constantFrom(...RELAY_TRANSCRIPTION_PROVIDERS),
    speechModel: fc.stringMatching(/^[A-Za-z0-9._-]{1,20}$/),
    interruptible: fc.constantFrom(...RELAY_INTERRUPTIONS),
    welcomeGreetingInterruptible: fc.constantFrom(...RELAY_INTERRUPTIONS),
  },
  { requiredKeys: ['language', 'interruptible', 'welcomeGreetingInterruptible'] },
);

/** XML 1.0's Char production: tab, line feed, carriage return, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF. */
const isXmlChar = (codePoint: number) =>
  codePoint === 0x9 ||
  codePoint === 0xa ||
  codePoint === 0xd ||
  (codePoint >= 0x20 && codePoint <= 0xd7ff) ||
  (codePoint >= 0xe000 && codePoint <= 0xfffd) ||
  codePoint >= 0x10000;
const xmlCharsOf = (text: string) => [...text].filter((char) => isXmlChar(char.codePointAt(0)!)).join('');

/** Strings rich in what XML escaping is about, beside any other characters. */
const markupy = fc.string({
  unit: fc.oneof(
    fc.constantFrom('&', '<', '>', '"', "'", '\t', '\n', '\r', ' ', '&amp;', ']]>'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 40,
});

describe("relayTwiml matches the twilio library's builder", () => {
  it('byte for byte, for any text XML can hold', () => {
    fc.assert(
      fc.property(
        markupy.map(xmlCharsOf),
        markupy.map(xmlCharsOf),
        markupy.map(xmlCharsOf),
        fc.option(markupy.map(xmlCharsOf), { nil: undefined }),
        voices,
        (relayUrl, commandId, greeting, actionUrl, voice) => {
          expect(
            relayTwiml({ relayUrl, commandId, welcomeGreeting: greeting, voice, ...(actionUrl === undefined ? {} : { actionUrl }) }),
          ).toBe(libraryTwiml(relayUrl, commandId, greeting, actionUrl, voice));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('drops what XML cannot hold (controls, lone surrogates), where the library would write a document no parser reads', () => {
    fc.assert(
      fc.property(markupy, markupy, (relayUrl, commandId) => {
        const xml = relayTwiml({ relayUrl, commandId, welcomeGreeting: 'Hello', actionUrl: relayUrl });
        expect(xmlCharsOf(xml)).toBe(xml);
        expect(parse(xml)).toEqual({
          action: xmlCharsOf(relayUrl),
          url: xmlCharsOf(relayUrl),
          welcomeGreeting: 'Hello',
          dtmfDetection: 'true',
          name: 'command_id',
          value: xmlCharsOf(commandId),
        });
      }),
      { numRuns: 300 },
    );
    expect(libraryTwiml('wss://h/relay', 'a\u0001b', 'Hi')).toContain('a\u0001b');
    expect(relayTwiml({ relayUrl: 'wss://h/relay', commandId: 'a\u0001b\ud800', welcomeGreeting: 'Hi' })).toContain('value="ab"');
  });
});

describe('plainGreeting', () => {
  it('keeps a short plain line as it is', () => {
    expect(plainGreeting('Hi Ana, ready for the Q3 review?')).toBe('Hi Ana, ready for the Q3 review?');
  });

  it('cuts a long word-less text at the bound', () => {
    expect(plainGreeting('a'.repeat(1000))).toHaveLength(MAX_WELCOME_GREETING_LENGTH);
  });
});

describe('relayUrlOf', () => {
  it.each([
    ['https://hooks.example.com', 'wss://hooks.example.com/relay'],
    ['https://hooks.example.com/', 'wss://hooks.example.com/relay'],
    ['https://abc.execute-api.eu-west-1.amazonaws.com/prod', 'wss://abc.execute-api.eu-west-1.amazonaws.com/prod/relay'],
    ['https://hooks.example.com:8443/base/', 'wss://hooks.example.com:8443/base/relay'],
    ['http://127.0.0.1:3000', 'ws://127.0.0.1:3000/relay'],
  ])('%s → %s', (base, relay) => {
    expect(relayUrlOf(base)).toBe(relay);
  });

  it('refuses a base that is not http(s)', () => {
    expect(() => relayUrlOf('ftp://hooks.example.com')).toThrow(/http\(s\)/);
    expect(() => relayUrlOf('not a url')).toThrow();
  });
});

describe('publicUrlOf', () => {
  it('joins the base path prefix and keeps the query', () => {
    expect(publicUrlOf('https://h.example.com/prod/', '/webhooks/twilio/call-status?command_id=c1')).toBe(
      'https://h.example.com/prod/webhooks/twilio/call-status?command_id=c1',
    );
    expect(publicUrlOf('http://127.0.0.1:3000', 'webhooks/twilio/call-status')).toBe('http://127.0.0.1:3000/webhooks/twilio/call-status');
  });
});
