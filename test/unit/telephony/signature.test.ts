import { createHmac } from 'node:crypto';
import { isValidTwilioSignature } from '../../../shared/providers/telephony/signature';

const authToken = '0123456789abcdef0123456789abcdef';
const url = 'https://hooks.example.com/prod/webhooks/twilio/call-status?command_id=cmd_1';
const params = {
  CallSid: 'CA0123456789abcdef0123456789abcdef',
  CallStatus: 'in-progress',
  SequenceNumber: '2',
  Timestamp: 'Tue, 24 Nov 2026 10:00:00 +0000',
  To: '+14155552671',
  From: '+15005550006',
};

/** Computed here, independently of the twilio library: HMAC-SHA1 over the URL and the parameters sorted by name, base64. */
function sign(token: string, signedUrl: string, signedParams: Record<string, string>): string {
  const data =
    signedUrl +
    Object.keys(signedParams)
      .sort()
      .map((key) => key + signedParams[key])
      .join('');
  return createHmac('sha1', token).update(data, 'utf8').digest('base64');
}

describe('isValidTwilioSignature', () => {
  it('accepts a signature computed as Twilio documents it', () => {
    expect(isValidTwilioSignature(authToken, sign(authToken, url, params), url, params)).toBe(true);
  });

  it('accepts parameters whose values need form encoding (spaces, plus, unicode)', () => {
    const odd = { ...params, CallerName: 'Zoë + Co & Partners' };
    expect(isValidTwilioSignature(authToken, sign(authToken, url, odd), url, odd)).toBe(true);
  });

  it('refuses a signature made with another auth token (forged)', () => {
    expect(isValidTwilioSignature(authToken, sign('fedcba9876543210fedcba9876543210', url, params), url, params)).toBe(false);
  });

  it('refuses a missing or empty signature, and any check without an auth token', () => {
    expect(isValidTwilioSignature(authToken, undefined, url, params)).toBe(false);
    expect(isValidTwilioSignature(authToken, '', url, params)).toBe(false);
    expect(isValidTwilioSignature('', sign('', url, params), url, params)).toBe(false);
  });

  it('refuses a request whose parameters were changed after signing', () => {
    const signature = sign(authToken, url, params);
    expect(isValidTwilioSignature(authToken, signature, url, { ...params, CallStatus: 'completed' })).toBe(false);
    expect(isValidTwilioSignature(authToken, signature, url, { ...params, CallDuration: '60' })).toBe(false);
  });

  it('refuses a signature over another URL (host, path prefix or query differ)', () => {
    const signature = sign(authToken, url, params);
    expect(isValidTwilioSignature(authToken, signature, url.replace('hooks.example.com', 'evil.example.com'), params)).toBe(false);
    expect(isValidTwilioSignature(authToken, signature, url.replace('/prod', ''), params)).toBe(false);
    expect(isValidTwilioSignature(authToken, signature, url.replace('cmd_1', 'cmd_2'), params)).toBe(false);
  });

  it('refuses garbage without throwing', () => {
    expect(isValidTwilioSignature(authToken, 'not-base64!!', url, params)).toBe(false);
    expect(isValidTwilioSignature(authToken, sign(authToken, 'not a url', params), 'not a url', { ...params, X: '1' })).toBe(false);
  });
});
