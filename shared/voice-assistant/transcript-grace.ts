import * as z from 'zod/mini';
import { readConfig } from '../platform/config';

/** How long a call's transcript stays open after the end of the call is reported, as the end of a call takes it. */
export interface TranscriptGrace {
  /** 0: the transcript closes, and the summary is queued, at once. */
  transcriptGraceMs: number;
}

/**
 * Reads TRANSCRIPT_GRACE_SECONDS (whole seconds, 0 to 900: SQS delays a
 * message at most 15 minutes) once, at cold start; a malformed value fails
 * the start with its name. The deployment sets it
 * (shared/calls/transcript-grace.ts).
 * @default 0
 */
export function readTranscriptGrace(settings: Record<string, string | undefined>): TranscriptGrace {
  const { TRANSCRIPT_GRACE_SECONDS } = readConfig(
    {
      TRANSCRIPT_GRACE_SECONDS: z.optional(
        z.coerce.number().check(z.int('must be a whole number of seconds'), z.minimum(0), z.maximum(900)),
      ),
    },
    settings,
  );
  return { transcriptGraceMs: (TRANSCRIPT_GRACE_SECONDS ?? 0) * 1000 };
}
