// A webhook receiver for Switchboard with no dependency outside Node.js (20 or newer).
//
//   SWITCHBOARD_WEBHOOK_SECRET=whsec_… node examples/webhook-receiver.mjs
//
// Listens on http://127.0.0.1:4000/hooks (HOST, PORT and WEBHOOK_PATH change that), checks
// Switchboard-Signature over the raw body (docs/webhooks.md "Verifying signatures"), ignores
// an event id it has already handled (delivery is at least once), prints one JSON line per
// event and answers 2xx at once. During a secret rotation, give both secrets, comma-separated.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

export function verifyWebhookSignature(secret, header, rawBody, toleranceSeconds = 300) {
  const parts = (header ?? '').split(',').map((part) => part.trim().split('='));
  const t = Number(parts.find(([key]) => key === 't')?.[1]);
  const signatures = parts.filter(([key, value]) => key === 'v1' && /^[0-9a-f]{64}$/.test(value)).map(([, value]) => value);
  if (!Number.isInteger(t) || signatures.length === 0 || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  return signatures.some((signature) => timingSafeEqual(expected, Buffer.from(signature, 'hex')));
}

const MAX_BODY_BYTES = 1024 * 1024;

/** The receiver as a Node HTTP server; `onEvent` gets each new event once. */
export function createReceiver({ secrets, path = '/hooks', onEvent }) {
  const seen = new Set();
  return createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== path) return res.writeHead(404).end();
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const header = req.headers['switchboard-signature'];
      if (!secrets.some((secret) => verifyWebhookSignature(secret, header, rawBody))) return res.writeHead(400).end('bad signature');
      const event = JSON.parse(rawBody.toString('utf8'));
      if (seen.has(event.id)) return res.writeHead(200).end('duplicate');
      seen.add(event.id);
      res.writeHead(204).end();
      onEvent(event); // after answering: the work never delays the 2xx
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secrets = (process.env.SWITCHBOARD_WEBHOOK_SECRET ?? '')
    .split(',')
    .map((secret) => secret.trim())
    .filter(Boolean);
  if (secrets.length === 0) {
    process.stderr.write('Set SWITCHBOARD_WEBHOOK_SECRET to the secret POST /api/webhooks answered (whsec_…).\n');
    process.exit(2);
  }
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 4000);
  const path = process.env.WEBHOOK_PATH ?? '/hooks';
  const server = createReceiver({
    secrets,
    path,
    onEvent: (event) =>
      process.stdout.write(`${JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data: event.data })}\n`),
  });
  server.listen(port, host, () => process.stderr.write(`Listening on http://${host}:${server.address().port}${path}\n`));
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
