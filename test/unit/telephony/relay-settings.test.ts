import { ConfigError } from '../../../shared/platform/config';
import { DEFAULT_RELAY_VOICE, readRelayVoice } from '../../../shared/providers/telephony/relay-settings';

describe('readRelayVoice', () => {
  it('defaults to US English, Twilio’s providers and voices, and interruptions by speech or keypress', () => {
    expect(readRelayVoice({})).toEqual({ language: 'en-US', interruptible: 'any', welcomeGreetingInterruptible: 'any' });
    expect(readRelayVoice({ RELAY_LANGUAGE: ' ', RELAY_INTERRUPTIBLE: '' })).toEqual(DEFAULT_RELAY_VOICE);
  });

  it('reads every setting', () => {
    expect(
      readRelayVoice({
        RELAY_LANGUAGE: 'es-ES',
        RELAY_TTS_PROVIDER: 'Amazon',
        RELAY_VOICE: 'Lucia-Neural',
        RELAY_TRANSCRIPTION_PROVIDER: 'Google',
        RELAY_SPEECH_MODEL: 'telephony',
        RELAY_INTERRUPTIBLE: 'speech',
        RELAY_WELCOME_GREETING_INTERRUPTIBLE: 'none',
      }),
    ).toEqual({
      language: 'es-ES',
      ttsProvider: 'Amazon',
      voice: 'Lucia-Neural',
      transcriptionProvider: 'Google',
      speechModel: 'telephony',
      interruptible: 'speech',
      welcomeGreetingInterruptible: 'none',
    });
  });

  it.each([
    [{ RELAY_INTERRUPTIBLE: 'true' }, /RELAY_INTERRUPTIBLE/],
    [{ RELAY_WELCOME_GREETING_INTERRUPTIBLE: 'sometimes' }, /RELAY_WELCOME_GREETING_INTERRUPTIBLE/],
    [{ RELAY_TTS_PROVIDER: 'elevenlabs' }, /RELAY_TTS_PROVIDER/],
    [{ RELAY_TRANSCRIPTION_PROVIDER: 'Whisper' }, /RELAY_TRANSCRIPTION_PROVIDER/],
    [{ RELAY_LANGUAGE: 'English' }, /RELAY_LANGUAGE: must be a BCP 47 language tag/],
    [{ RELAY_TTS_PROVIDER: 'Google', RELAY_VOICE: 'en US"/><Hangup/>' }, /RELAY_VOICE: must be a provider name/],
    [{ RELAY_VOICE: 'Joanna-Neural' }, /RELAY_VOICE needs RELAY_TTS_PROVIDER/],
    [{ RELAY_SPEECH_MODEL: 'nova-3-general' }, /RELAY_SPEECH_MODEL needs RELAY_TRANSCRIPTION_PROVIDER/],
  ])('fails the cold start on %j, naming the setting', (settings, message) => {
    expect(() => readRelayVoice(settings)).toThrow(ConfigError);
    expect(() => readRelayVoice(settings)).toThrow(message);
  });
});
