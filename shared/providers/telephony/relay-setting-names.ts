/**
 * The names of the relay settings (RELAY_*), which the catalogue declares on
 * the function that reads them. Apart from relay-settings.ts, which parses
 * them, so that a function importing the catalogue builds none of their
 * schemas at cold start.
 */
export const RELAY_SETTING_NAMES = [
  'RELAY_LANGUAGE',
  'RELAY_TTS_PROVIDER',
  'RELAY_VOICE',
  'RELAY_TRANSCRIPTION_PROVIDER',
  'RELAY_SPEECH_MODEL',
  'RELAY_INTERRUPTIBLE',
  'RELAY_WELCOME_GREETING_INTERRUPTIBLE',
] as const;

/** One relay setting's name. */
export type RelaySettingName = (typeof RELAY_SETTING_NAMES)[number];
