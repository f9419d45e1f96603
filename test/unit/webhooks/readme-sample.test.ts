import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { signatureHeader } from '../../../shared/webhooks/signature';

/** The receiver's code sample of docs/webhooks.md "Verifying signatures", run against what the service sends. */
const PAGE = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
const section = PAGE.slice(PAGE.indexOf('## Verifying signatures'));
const sample = /```js\n([\s\S]*?)```/.exec(section)![1]!;

type Verify = (secret: string, header: string | undefined, rawBody: string | Buffer, toleranceSeconds?: number) => boolean;
const verify = new Function(
  'createHmac',
  'timingSafeEqual',
  `${sample.replace(/^import .*$/m, '').replace('export function', 'function')}\nreturn verifyWebhookSignature;`,
)(createHmac, timingSafeEqual) as Verify;

describe("docs/webhooks.md's signature check for receivers", () => {
  const secret = 'whsec_readme-sample-secret-0123456789abcdefghijklm';
  const body =
    '{"id":"evt_0123","type":"command.completed","created_at":"2026-11-23T10:00:00.000Z","data":{"command":{"status":"completed"}}}';
  const now = () => Math.floor(Date.now() / 1000);

  it('accepts what Switchboard signs, as text or as raw bytes, with one secret or during a rotation', () => {
    expect(verify(secret, signatureHeader([secret], now(), body), body)).toBe(true);
    expect(verify(secret, signatureHeader([secret], now(), body), Buffer.from(body))).toBe(true);
    expect(verify(secret, signatureHeader(['whsec_newer', secret], now(), body), body)).toBe(true);
  });

  it('refuses another secret, a changed body, a stale time and a missing header', () => {
    expect(verify('whsec_other', signatureHeader([secret], now(), body), body)).toBe(false);
    expect(verify(secret, signatureHeader([secret], now(), body), body.replace('completed', 'failed'))).toBe(false);
    expect(verify(secret, signatureHeader([secret], now() - 600, body), body)).toBe(false);
    expect(verify(secret, undefined, body)).toBe(false);
  });
});
