import { readTranscriptGrace } from '../../../shared/voice-assistant/transcript-grace';

describe('TRANSCRIPT_GRACE_SECONDS', () => {
  it('is 0 when not set, and read in whole seconds up to SQS’s 900 s delay', () => {
    expect(readTranscriptGrace({})).toEqual({ transcriptGraceMs: 0 });
    expect(readTranscriptGrace({ TRANSCRIPT_GRACE_SECONDS: '30' })).toEqual({ transcriptGraceMs: 30_000 });
    expect(readTranscriptGrace({ TRANSCRIPT_GRACE_SECONDS: '900' })).toEqual({ transcriptGraceMs: 900_000 });
  });

  it.each(['-1', '1.5', '901', 'thirty'])('fails the start, naming the setting, when it is %s', (value) => {
    expect(() => readTranscriptGrace({ TRANSCRIPT_GRACE_SECONDS: value })).toThrow(/TRANSCRIPT_GRACE_SECONDS/);
  });
});
