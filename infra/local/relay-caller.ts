import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';

/** A message the relay sent back: text to speak, or the end of the session. */
export type RelayAnswer = { type: 'text'; token: string; last: boolean } | { type: 'end'; handoffData: string };

/** How a socket closed. */
export interface RelayClose {
  code: number;
  reason: string;
}

/**
 * The caller's side of a ConversationRelay socket, as Twilio speaks it:
 * `setup` with the call and its custom parameters, `prompt`s of what the
 * caller says, `interrupt`, `dtmf`. Used by `npm run call:local` and by tests.
 */
export interface RelayCaller {
  /** Every message the relay sent, in order. */
  readonly received: readonly RelayAnswer[];
  /** Resolves when the socket closes. */
  readonly closed: Promise<RelayClose>;
  setup(callSid: string, customParameters: Record<string, string>, extra?: Record<string, unknown>): void;
  /**
   * Sends a final prompt and resolves with the whole reply (text tokens up to `last`), or undefined when the session ended or the socket
   * closed first.
   */
  say(words: string): Promise<string | undefined>;
  /** Sends a prompt and does not wait. */
  prompt(words: string, last?: boolean): void;
  interrupt(utteranceUntilInterrupt: string, durationUntilInterruptMs?: number): void;
  press(digit: string): void;
  /** Sends anything (a test's malformed message). */
  sendRaw(text: string): void;
  /**
   * Resolves with the next message of `type` the relay sends after now (or already sent and not yet taken), or undefined once the socket
   * closed.
   */
  next(type?: RelayAnswer['type']): Promise<RelayAnswer | undefined>;
  /** Closes the socket as Twilio does when the call ends. */
  close(code?: number): void;
  /** Drops the socket without a close handshake (a lost connection). */
  drop(): void;
}

/** The upgrade was refused: the HTTP status the server answered. */
export class RelayRefusedError extends Error {
  constructor(readonly status: number) {
    super(`The relay socket refused the upgrade (HTTP ${status})`);
    this.name = 'RelayRefusedError';
  }
}

/** Opens a relay socket at `url`, the upgrade signed with `signature` (X-Twilio-Signature) when given. */
export async function openRelayCaller(url: string, signature?: string): Promise<RelayCaller> {
  const ws = new WebSocket(url, { headers: signature ? { 'x-twilio-signature': signature } : {}, handshakeTimeout: 10_000 });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      reject(new RelayRefusedError(res.statusCode ?? 0));
    });
    ws.once('error', reject);
  });
  const received: RelayAnswer[] = [];
  let taken = 0;
  const waiters: (() => void)[] = [];
  let isClosed = false;
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  ws.on('message', (data) => {
    try {
      received.push(JSON.parse(String(data)) as RelayAnswer);
    } catch {
      // Not a relay message; nothing to keep.
    }
    wake();
  });
  const closed = new Promise<RelayClose>((resolve) =>
    ws.once('close', (code, reason) => {
      isClosed = true;
      wake();
      resolve({ code, reason: reason.toString('utf8') });
    }),
  );
  ws.on('error', () => undefined);

  const send = (message: Record<string, unknown>) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const next = async (type?: RelayAnswer['type']): Promise<RelayAnswer | undefined> => {
    for (;;) {
      while (taken < received.length) {
        const message = received[taken++]!;
        if (!type || message.type === type) return message;
      }
      if (isClosed) return undefined;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };

  return {
    received,
    closed,
    setup(callSid, customParameters, extra = {}) {
      send({
        type: 'setup',
        sessionId: `VX${randomBytes(16).toString('hex')}`,
        callSid,
        direction: 'outbound-api',
        callStatus: 'IN-PROGRESS',
        customParameters,
        ...extra,
      });
    },
    async say(words) {
      taken = received.length;
      send({ type: 'prompt', voicePrompt: words, lang: 'en-US', last: true });
      let reply = '';
      for (;;) {
        const message = await next();
        if (!message || message.type === 'end') return reply || undefined;
        reply += message.token;
        if (message.last) return reply;
      }
    },
    prompt(words, last = true) {
      send({ type: 'prompt', voicePrompt: words, lang: 'en-US', last });
    },
    interrupt(utteranceUntilInterrupt, durationUntilInterruptMs = 500) {
      send({ type: 'interrupt', utteranceUntilInterrupt, durationUntilInterruptMs });
    },
    press(digit) {
      send({ type: 'dtmf', digit });
    },
    sendRaw(text) {
      if (ws.readyState === ws.OPEN) ws.send(text);
    },
    next,
    close(code = 1000) {
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code);
    },
    drop() {
      ws.terminate();
    },
  };
}
