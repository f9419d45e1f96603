/**
 * The bounds of one call with the assistant, written once. A phone call is
 * a live conversation: a turn must answer within seconds, and a call that
 * runs away (a stuck line, a caller who never stops) must end by itself.
 */
export const RELAY_LIMITS = {
  /** Largest socket message read (API Gateway's WebSocket frame limit is 32 KB). */
  maxMessageBytes: 32 * 1024,
  /** Longest caller utterance kept, in characters (longer is cut at a word). */
  maxPromptCharacters: 2_000,
  /** Longest assistant reply spoken, in characters: two or three short sentences. */
  maxReplyCharacters: 600,
  /** Caller turns after which the assistant closes the call. */
  maxCallerTurns: 40,
  /** Entries the transcript may hold: every caller turn and its reply, keypresses, the opening line, and the closing line. */
  maxTranscriptEntries: 120,
  /**
   * Bytes the transcript's entries may take in the command's item (UTF-8, as DynamoDB counts them); past it
   * the assistant closes the call, as at `maxTranscriptEntries`.
   * Bound: ≤ 64 KiB. A 30-minute call (`maxCallSeconds`) at speaking pace is about 27,000 characters of
   * English (about 30 KB with each entry's fields) or 10,000 of Japanese (about 40 KB), so only a call that runs
   * away meets it; without it, 40 turns of 2,000 characters and 80 replies of 600 could take 380 KB of
   * three-byte characters, which with the command's request and context would pass DynamoDB's 400 KB.
   */
  maxTranscriptBytes: 64 * 1024,
  /** Seconds after the socket's setup at which the assistant closes the call on the next turn. */
  maxCallSeconds: 30 * 60,
  /** Transcript entries the model sees on each turn (the latest ones). */
  historyEntries: 24,
  /** Upper bound on a reply's length in tokens. */
  replyMaxTokens: 300,
  /** How long a socket's session item is kept after its setup (the table's TTL deletes it). */
  sessionRetentionSeconds: 24 * 60 * 60,
} as const;

/**
 * Retry and timeout policy of the model during a call: a caller waits on
 * the line, so one attempt of at most 8 s and one retry after at most 1 s
 * (a hard deadline of 18 s, below the socket function's 29 s), after which
 * the offline writer answers the turn rather than leave silence.
 */
export const VOICE_LLM_POLICY = { timeoutMs: 8_000, maxRetries: 1, maxRetryWaitMs: 1_000 } as const;
