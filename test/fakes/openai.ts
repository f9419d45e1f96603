import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';

/**
 * A streamed answer (for requests with `stream: true`): server-sent
 * `chat.completion.chunk`s, then `data: [DONE]`.
 */
export interface FakeStream {
  /** The text, as the chunks to send (each as it is), or one string cut into `chunks` pieces at word starts. */
  text: string | readonly string[];
  /** @default one chunk a word */
  chunks?: number;
  /** @default 0 */
  intervalMs?: number;
  /** Tools the model calls after its text (no arguments). */
  toolCalls?: readonly string[];
  /** Drops the connection after this many text chunks (a failure midway). */
  dropAfter?: number;
}

/** One canned answer of the fake. A plain `content` answer to a streamed request is streamed a word a chunk. */
export type FakeReply =
  | { content: string | object }
  | { stream: FakeStream }
  | { refusal: string }
  | { finishReason: 'length'; content: string }
  | { status: number; error: { message: string; type: string; code: string | null }; headers?: Record<string, string> }
  | { malformed: true }
  | { stallAfterHeaders: true }
  | { hangMs: number; then?: FakeReply };

/**
 * A request the fake received. Its body is typed as the common, unstreamed
 * request the other tests read; a streamed one has `stream: true` besides.
 */
export interface FakeRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatCompletionCreateParamsNonStreaming;
}

/** When the fake wrote a streamed answer's pieces (`performance.now()`), for benches. */
export interface StreamTiming {
  firstChunkAt?: number;
  doneAt?: number;
}

/** Loopback stand-in for OpenAI chat completions, for tests of the real openai library. */
export interface OpenAiFake {
  /** Root to pass as `baseURL`, `/v1` included. */
  readonly baseUrl: string;
  /** Every chat completion request received, in order. */
  readonly requests: readonly FakeRequest[];
  /** Every streamed answer's timing, in the order the requests came. */
  readonly streams: readonly StreamTiming[];
  /** Sets the responder used when the queue is empty. */
  respondWith(handler: (body: ChatCompletionCreateParamsNonStreaming) => FakeReply): void;
  /** Queues one-shot replies, used first in first out before the responder. */
  enqueue(...replies: FakeReply[]): void;
  /** Stops the server, cutting any hanging answer. */
  close(): Promise<void>;
}

const unset = (): FakeReply => ({
  status: 500,
  error: { message: 'OpenAI fake: no reply set up for this request', type: 'server_error', code: null },
});

/** Starts the fake on 127.0.0.1 at a free port. It answers `POST <any prefix>/chat/completions`. */
export async function startOpenAiFake(): Promise<OpenAiFake> {
  const requests: FakeRequest[] = [];
  const streams: StreamTiming[] = [];
  const queue: FakeReply[] = [];
  const sockets = new Set<Socket>();
  let responder: (body: ChatCompletionCreateParamsNonStreaming) => FakeReply = unset;
  let served = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        send(res, 404, { error: { message: 'not found', type: 'invalid_request_error', param: null, code: null } });
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatCompletionCreateParamsNonStreaming;
      requests.push({ path: req.url, headers: req.headers, body });
      served += 1;
      answer(res, body, queue.shift() ?? responder(body), `chatcmpl-fake-${served}`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function answer(res: ServerResponse, body: ChatCompletionCreateParamsNonStreaming, reply: FakeReply, id: string) {
    if ('hangMs' in reply) {
      const timer = setTimeout(() => answer(res, body, reply.then ?? responder(body), id), reply.hangMs);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if ('malformed' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": "chatcmpl-broken", "choices": [');
      return;
    }
    if ('stallAfterHeaders' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' }).write('{"id": "chatcmpl-stalled", ');
      return;
    }
    if ('status' in reply) {
      send(res, reply.status, { error: { ...reply.error, param: null } }, reply.headers);
      return;
    }
    if ('stream' in reply || (isStreamed(body) && 'content' in reply)) {
      const planned: FakeStream =
        'stream' in reply ? reply.stream : { text: typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content) };
      const timing: StreamTiming = {};
      streams.push(timing);
      streamAnswer(res, id, body.model, planned, timing, includesUsage(body));
      return;
    }
    if ('refusal' in reply) {
      send(res, 200, completion(id, body.model, null, reply.refusal, 'stop'));
      return;
    }
    const content = typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content);
    const finishReason = 'finishReason' in reply ? reply.finishReason : 'stop';
    send(res, 200, completion(id, body.model, content, null, finishReason));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    streams,
    respondWith(handler) {
      responder = handler;
    },
    enqueue(...replies) {
      queue.push(...replies);
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

function completion(id: string, model: string, content: string | null, refusal: string | null, finishReason: string) {
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal }, logprobs: null, finish_reason: finishReason }],
    usage: { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 },
  };
}

function send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) {
  res
    .writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_fake_${Date.now()}`, ...headers })
    .end(JSON.stringify(payload));
}

/** The text cut into `count` pieces at word starts (each word keeps the space before it, as model tokens do). */
export function piecesOf(text: string, count?: number): string[] {
  const words = text.match(/\s*\S+/g) ?? [];
  if (count === undefined || count >= words.length) return words;
  const pieces: string[] = [];
  for (let index = 0; index < count; index++) {
    pieces.push(words.slice(Math.floor((index * words.length) / count), Math.floor(((index + 1) * words.length) / count)).join(''));
  }
  return pieces;
}

function streamAnswer(res: ServerResponse, id: string, model: string, planned: FakeStream, timing: StreamTiming, withUsage: boolean) {
  const pieces = typeof planned.text === 'string' ? piecesOf(planned.text, planned.chunks) : [...planned.text];
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: object, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`;
  const events: (() => void)[] = [];
  pieces.forEach((text, index) =>
    events.push(() => {
      if (planned.dropAfter !== undefined && index >= planned.dropAfter) {
        res.destroy();
        return;
      }
      res.write(chunk(index === 0 ? { role: 'assistant', content: text } : { content: text }));
      timing.firstChunkAt ??= performance.now();
    }),
  );
  events.push(() => {
    if (planned.dropAfter !== undefined && planned.dropAfter >= pieces.length) return void res.destroy();
    (planned.toolCalls ?? []).forEach((name, index) => {
      res.write(chunk({ tool_calls: [{ index, id: `call_fake_${index}`, type: 'function', function: { name, arguments: '' } }] }));
      res.write(chunk({ tool_calls: [{ index, function: { arguments: '{}' } }] }));
    });
    res.write(chunk({}, (planned.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop'));
    // With `stream_options.include_usage`, one more chunk: no choices, the whole request's usage (a token per piece here).
    if (withUsage) {
      const usage = { prompt_tokens: 42, completion_tokens: pieces.length, total_tokens: 42 + pieces.length };
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
    timing.doneAt = performance.now();
  });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': `req_fake_${Date.now()}` });
  let next = 0;
  const step = () => {
    if (res.destroyed) return;
    events[next++]!();
    if (next < events.length) timer = setTimeout(step, planned.intervalMs ?? 0);
  };
  let timer: NodeJS.Timeout | undefined;
  res.on('close', () => clearTimeout(timer));
  step();
}

function includesUsage(body: object): boolean {
  return (body as { stream_options?: { include_usage?: unknown } }).stream_options?.include_usage === true;
}

function isStreamed(body: object): boolean {
  return (body as { stream?: unknown }).stream === true;
}
