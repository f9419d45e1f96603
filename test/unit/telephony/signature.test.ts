import { createHmac } from 'node:crypto';
import twilio from 'twilio';
import * as webhooks from 'twilio/lib/webhooks/webhooks.js';
import { signTwilioRequest } from '../../../infra/local/twilio-wire';
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

/**
 * The check against the twilio library's own signer and validator, loaded
 * from the package root as an application using the whole library would.
 * The cases are the ones Twilio's webhook security page names: a port in the
 * URL or not, a query string (kept as sent), POST parameters sorted by name,
 * no parameters at all (the relay socket's upgrade: the URL alone).
 */
describe('isValidTwilioSignature agrees with the twilio library', () => {
  const base = 'https://hooks.example.com/prod/webhooks/twilio/call-status';
  const cases: [string, { signed: string; checked: string; params: Record<string, string>; valid: boolean }][] = [
    ['the same URL and parameters', { signed: url, checked: url, params, valid: true }],
    ['signed with :443, checked without', { signed: url.replace('.com/', '.com:443/'), checked: url, params, valid: true }],
    ['signed without a port, checked with :443', { signed: url, checked: url.replace('.com/', '.com:443/'), params, valid: true }],
    ['http with :80 on one side only', { signed: 'http://127.0.0.1:80/relay', checked: 'http://127.0.0.1/relay', params: {}, valid: true }],
    ['another port', { signed: url.replace('.com/', '.com:8443/'), checked: url, params, valid: false }],
    [
      'a query string with several parameters and escapes',
      { signed: `${base}?command_id=c%201&b=%27x%27&a=1`, checked: `${base}?command_id=c%201&b=%27x%27&a=1`, params, valid: true },
    ],
    ['the query parameters reordered', { signed: `${base}?a=1&b=2`, checked: `${base}?b=2&a=1`, params, valid: false }],
    ['no query string where one was signed', { signed: `${base}?command_id=c1`, checked: base, params, valid: false }],
    [
      'parameter names that sort by code unit (upper case first, prefixes)',
      { signed: url, checked: url, params: { a: '1', B: '2', ab: '3', A: '4', 'a-b': '5' }, valid: true },
    ],
    [
      'values with spaces, plus signs, ampersands and non-ASCII',
      { signed: url, checked: url, params: { CallerName: 'Zoë + Co & Partners', Note: '日本 🙂' }, valid: true },
    ],
    [
      'the relay upgrade: no parameters, the URL alone',
      { signed: 'wss://hooks.example.com/prod/relay', checked: 'wss://hooks.example.com/prod/relay', params: {}, valid: true },
    ],
    [
      'wss has no port leniency: :443 on one side refuses',
      { signed: 'wss://hooks.example.com:443/prod/relay', checked: 'wss://hooks.example.com/prod/relay', params: {}, valid: false },
    ],
    [
      // A JSON webhook is signed over its URL alone, bodySHA256 in the query; the hash itself is the library's
      // validateRequestWithBody's to check, which no handler here needs (no Twilio request to this service carries JSON).
      'a URL carrying bodySHA256, signed over the URL alone',
      { signed: `${base}?bodySHA256=0a1b2c`, checked: `${base}?bodySHA256=0a1b2c`, params: {}, valid: true },
    ],
  ];

  it.each(cases)('Twilio signs, we check: %s', (_, { signed, checked, params: signedParams, valid }) => {
    const signature = twilio.getExpectedTwilioSignature(authToken, signed, signedParams);
    expect(twilio.validateRequest(authToken, signature, checked, signedParams)).toBe(valid);
    expect(isValidTwilioSignature(authToken, signature, checked, signedParams)).toBe(valid);
  });

  it.each(cases)('we sign (the local telephony), Twilio checks: %s', (_, { signed, checked, params: signedParams, valid }) => {
    const signature = signTwilioRequest(authToken, signed, signedParams);
    expect(signature).toBe(twilio.getExpectedTwilioSignature(authToken, signed, signedParams));
    expect(twilio.validateRequest(authToken, signature, checked, signedParams)).toBe(valid);
  });

  it('checks with the very function the package root exports, loaded without the root', () => {
    expect(webhooks.validateRequest).toBe(twilio.validateRequest);
  });
});
