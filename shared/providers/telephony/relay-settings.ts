import * as z from 'zod/mini';
import { ConfigError, readConfig } from '../../platform/config';
import type { RelaySettingName } from './relay-setting-names';

/** What may interrupt the assistant's speech (Twilio's `interruptible` and `welcomeGreetingInterruptible`). */
export const RELAY_INTERRUPTIONS = ['none', 'dtmf', 'speech', 'any'] as const;
/** Twilio's text-to-speech providers for ConversationRelay (`ttsProvider`). */
export const RELAY_TTS_PROVIDERS = ['Google', 'Amazon', 'ElevenLabs'] as const;
/** Twilio's speech-to-text providers for ConversationRelay (`transcriptionProvider`). */
export const RELAY_TRANSCRIPTION_PROVIDERS = ['Google', 'Deepgram'] as const;

/**
 * How Twilio speaks and listens on a call, as `<ConversationRelay>`
 * attributes. Keypress detection (`dtmfDetection`) is always on: the
 * assistant keeps keypresses in the transcript.
 */
export interface RelayVoiceSettings {
  /** `language`: BCP 47 tag for both text-to-speech and transcription. */
  language: string;
  /** `ttsProvider`; unset: Twilio's default. */
  ttsProvider?: (typeof RELAY_TTS_PROVIDERS)[number];
  /** `voice`, a voice of `ttsProvider`; unset: the provider's default for the language. */
  voice?: string;
  /** `transcriptionProvider`; unset: Twilio's default. */
  transcriptionProvider?: (typeof RELAY_TRANSCRIPTION_PROVIDERS)[number];
  /** `speechModel`, a model of `transcriptionProvider`; unset: the provider's default. */
  speechModel?: string;
  /** `interruptible`: what stops a reply being spoken. */
  interruptible: (typeof RELAY_INTERRUPTIONS)[number];
  /** `welcomeGreetingInterruptible`: what stops the welcome greeting being spoken. */
  welcomeGreetingInterruptible: (typeof RELAY_INTERRUPTIONS)[number];
}

/** The settings when none is set: US English, Twilio's providers and voices, speech or a key interrupts (Twilio's own default). */
export const DEFAULT_RELAY_VOICE: RelayVoiceSettings = { language: 'en-US', interruptible: 'any', welcomeGreetingInterruptible: 'any' };

/** A provider's voice or model name: letters, digits, `.`, `_`, `-` (`en-US-Journey-O`, `Joanna-Neural`, `nova-3-general`). */
const providerName = () =>
  z.optional(
    z.string().check(z.regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be a provider name: letters, digits, ".", "_" or "-", at most 100')),
  );

/**
 * The relay settings, as a shape for `readConfig`: all optional, each
 * malformed value failing the cold start by name. Its keys are exactly
 * RELAY_SETTING_NAMES: `satisfies` refuses a name missing or one too many.
 */
export const relaySettingsSchema = {
  RELAY_LANGUAGE: z.optional(z.string().check(z.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a BCP 47 language tag like en-US'))),
  RELAY_TTS_PROVIDER: z.optional(z.enum(RELAY_TTS_PROVIDERS)),
  RELAY_VOICE: providerName(),
  RELAY_TRANSCRIPTION_PROVIDER: z.optional(z.enum(RELAY_TRANSCRIPTION_PROVIDERS)),
  RELAY_SPEECH_MODEL: providerName(),
  RELAY_INTERRUPTIBLE: z.optional(z.enum(RELAY_INTERRUPTIONS)),
  RELAY_WELCOME_GREETING_INTERRUPTIBLE: z.optional(z.enum(RELAY_INTERRUPTIONS)),
} satisfies Record<RelaySettingName, unknown>;

/**
 * Reads the relay settings once, at cold start. A voice or speech model
 * names something of one provider, so it needs its provider set beside it:
 * alone it fails the cold start (ConfigError), as a malformed value does.
 */
export function readRelayVoice(settings: Record<string, string | undefined>): RelayVoiceSettings {
  const read = readConfig(relaySettingsSchema, settings);
  const problems = [
    read.RELAY_VOICE && !read.RELAY_TTS_PROVIDER ? 'RELAY_VOICE needs RELAY_TTS_PROVIDER (a voice belongs to one provider)' : undefined,
    read.RELAY_SPEECH_MODEL && !read.RELAY_TRANSCRIPTION_PROVIDER
      ? 'RELAY_SPEECH_MODEL needs RELAY_TRANSCRIPTION_PROVIDER (a model belongs to one provider)'
      : undefined,
  ].filter((problem) => problem !== undefined);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  return {
    language: read.RELAY_LANGUAGE ?? DEFAULT_RELAY_VOICE.language,
    ...(read.RELAY_TTS_PROVIDER ? { ttsProvider: read.RELAY_TTS_PROVIDER } : {}),
    ...(read.RELAY_VOICE ? { voice: read.RELAY_VOICE } : {}),
    ...(read.RELAY_TRANSCRIPTION_PROVIDER ? { transcriptionProvider: read.RELAY_TRANSCRIPTION_PROVIDER } : {}),
    ...(read.RELAY_SPEECH_MODEL ? { speechModel: read.RELAY_SPEECH_MODEL } : {}),
    interruptible: read.RELAY_INTERRUPTIBLE ?? DEFAULT_RELAY_VOICE.interruptible,
    welcomeGreetingInterruptible: read.RELAY_WELCOME_GREETING_INTERRUPTIBLE ?? DEFAULT_RELAY_VOICE.welcomeGreetingInterruptible,
  };
}
