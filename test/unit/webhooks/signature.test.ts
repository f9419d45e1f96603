import { createHmac } from 'node:crypto';
import { computeSignature, parseSignatureHeader, signatureHeader, verifyWebhookSignature } from '../../../shared/webhooks/signature';

const SECRET = 'whsec_test-secret-0123456789abcdefghijklmnopqrstuvwx';
const OLD_SECRET = 'whsec_old-secret-0123456789abcdefghijklmnopqrstuvwxy';
const BODY =
  '{"id":"evt_1","type":"command.completed","created_at":"2026-11-23T10:00:00.000Z","data":{"command":{"status":"completed","note":"héllo"}}}';
const T = 1_795_000_000;

describe('webhook signatures', () => {
  it("sign HMAC-SHA256 over '<t>.<raw body>' with the whole secret as key, as Stripe does", () => {
    const header = signatureHeader([SECRET], T, BODY);
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`, 'utf8').digest('hex');
    expect(header).toBe(`t=${T},v1=${expected}`);
    expect(computeSignature(SECRET, T, Buffer.from(BODY, 'utf8'))).toBe(expected);
  });

  it('verify a header made for the body, within the tolerance', () => {
    const header = signatureHeader([SECRET], T, BODY);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, T)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, Buffer.from(BODY, 'utf8'), 300, T + 299)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, T - 300)).toBe(true);
  });

  it('refuse another secret, a changed body, an old or future time, and malformed headers', () => {
    const header = signatureHeader([SECRET], T, BODY);
    expect(verifyWebhookSignature(OLD_SECRET, header, BODY, 300, T)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, `${BODY} `, 300, T)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, T + 301)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, T - 301)).toBe(false);
    for (const bad of [
      undefined,
      null,
      '',
      'v1=abc',
      `t=${T}`,
      `t=soon,v1=${computeSignature(SECRET, T, BODY)}`,
      `t=${T},v0=${computeSignature(SECRET, T, BODY)}`,
    ]) {
      expect(verifyWebhookSignature(SECRET, bad, BODY, 300, T)).toBe(false);
    }
    // A signature made for another time does not verify with this one.
    expect(verifyWebhookSignature(SECRET, `t=${T + 1},v1=${computeSignature(SECRET, T, BODY)}`, BODY, 300, T)).toBe(false);
  });

  it('carry one v1 per secret during a rotation; either secret verifies, and a receiver may hold both', () => {
    const header = signatureHeader([SECRET, OLD_SECRET], T, BODY);
    expect(parseSignatureHeader(header)).toEqual({
      timestamp: T,
      signatures: [computeSignature(SECRET, T, BODY), computeSignature(OLD_SECRET, T, BODY)],
    });
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, T)).toBe(true);
    expect(verifyWebhookSignature(OLD_SECRET, header, BODY, 300, T)).toBe(true);
    expect(verifyWebhookSignature([OLD_SECRET, 'whsec_other'], signatureHeader([SECRET], T, BODY), BODY, 300, T)).toBe(false);
    expect(verifyWebhookSignature(['whsec_other', SECRET], signatureHeader([SECRET], T, BODY), BODY, 300, T)).toBe(true);
  });

  it('skip the time check only when told to (Infinity)', () => {
    const header = signatureHeader([SECRET], T, BODY);
    expect(verifyWebhookSignature(SECRET, header, BODY, Infinity, T + 86_400 * 365)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, BODY, undefined, T + 86_400)).toBe(false);
  });

  it('need a secret to sign with', () => {
    expect(() => signatureHeader([], T, BODY)).toThrow(/at least one secret/);
  });
});
