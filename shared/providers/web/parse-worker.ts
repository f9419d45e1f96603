import { parentPort } from 'node:worker_threads';
import type { ParseReply, ParseRequest } from './page-parser';
import { readableHtml } from './readable-text';

/**
 * Worker thread of the page parser: answers each page posted to it with its
 * readable text, one at a time. The parser terminates it when a page takes
 * longer than its deadline, so a slow parse never holds the main thread.
 */
const port = parentPort;
if (!port) throw new Error('parse-worker runs as a worker thread of the page parser');

port.on('message', ({ html, maxChars }: ParseRequest) => {
  let reply: ParseReply;
  try {
    reply = { ok: true, page: readableHtml(html, maxChars) };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.name : 'Error' };
  }
  port.postMessage(reply);
});
