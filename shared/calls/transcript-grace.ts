/** The socket function's timeout: below API Gateway's 29 s integration timeout; a turn's model call ends by 18 s (VOICE_LLM_POLICY). */
export const RELAY_TIMEOUT_SECONDS = 29;

/**
 * The setting that keeps a call's transcript open for a while after the
 * end of the call is reported, and holds its summary back as long: in AWS
 * `$disconnect` (or Twilio's callback) runs beside a turn still being
 * answered in another invocation, whose one write comes at the turn's end.
 * The deployment sets it to TRANSCRIPT_GRACE_SECONDS on every function
 * that requests the summary. Under `npm start` it is 0 by default: the
 * local socket server hands a socket's `$disconnect` over only after its
 * last message was handled, so no turn is in flight then. Here, beside the
 * call, as both features that report the end of a call set it: the voice
 * assistant (the socket) and stakeholder coordination (Twilio's callbacks).
 */
export const TRANSCRIPT_GRACE_SETTING = 'TRANSCRIPT_GRACE_SECONDS';

/** How long a turn in flight can still write after the call ended: the socket function's timeout, and a second of margin. */
export const TRANSCRIPT_GRACE_SECONDS = RELAY_TIMEOUT_SECONDS + 1;
