import { Signature } from '@hubspot/api-client';
import { hubspotSignatureV3, isSignedByHubSpot, MAX_SIGNATURE_AGE_MS } from '../../../shared/crm/webhook-signature';

const SECRET = 'cs-7a3c1f0e-9b8d-4c6e-a5f4-3d2c1b0a9f8e';
const NOW = Date.parse('2026-11-26T15:00:00.000Z');
const URL_CALLED = 'https://switchboard.example.com/webhooks/hubspot?app=1';
const BODY = '[{"eventId":1,"subscriptionType":"contact.propertyChange","portalId":24681357,"objectId":101,"propertyName":"jobtitle"}]';

/** The request as HubSpot signs it, by the official client library's signer. */
function signed(overrides: { timestamp?: number; body?: string; secret?: string } = {}) {
  const timestamp = overrides.timestamp ?? NOW - 1_000;
  const signature = Signature.getSignature('POST', 'v3', {
    clientSecret: overrides.secret ?? SECRET,
    requestBody: BODY,
    url: URL_CALLED,
    timestamp,
    // The signer reads no signature; its options type asks for one all the same.
    signature: '',
  });
  return { method: 'POST', url: URL_CALLED, body: overrides.body ?? BODY, timestamp: String(timestamp), signature };
}

describe('HubSpot signature v3', () => {
  it('signs as the official library does', () => {
    const request = signed();
    expect(hubspotSignatureV3(SECRET, request)).toBe(request.signature);
    expect(isSignedByHubSpot(SECRET, request, NOW)).toBe(true);
  });

  it('refuses another secret, a changed body, URL or method', () => {
    expect(isSignedByHubSpot('another-secret', signed(), NOW)).toBe(false);
    expect(isSignedByHubSpot(SECRET, signed({ body: BODY.replace('jobtitle', 'email') }), NOW)).toBe(false);
    expect(isSignedByHubSpot(SECRET, { ...signed(), url: URL_CALLED.replace('?app=1', '') }, NOW)).toBe(false);
    expect(isSignedByHubSpot(SECRET, { ...signed(), method: 'PUT' }, NOW)).toBe(false);
  });

  it('refuses a call older (or further ahead) than five minutes, and one without a signature or timestamp', () => {
    expect(isSignedByHubSpot(SECRET, signed({ timestamp: NOW - MAX_SIGNATURE_AGE_MS - 1 }), NOW)).toBe(false);
    expect(isSignedByHubSpot(SECRET, signed({ timestamp: NOW + MAX_SIGNATURE_AGE_MS + 1 }), NOW)).toBe(false);
    expect(isSignedByHubSpot(SECRET, signed({ timestamp: NOW - MAX_SIGNATURE_AGE_MS + 1 }), NOW)).toBe(true);
    expect(isSignedByHubSpot(SECRET, { ...signed(), signature: undefined }, NOW)).toBe(false);
    expect(isSignedByHubSpot(SECRET, { ...signed(), timestamp: undefined }, NOW)).toBe(false);
    expect(isSignedByHubSpot(SECRET, { ...signed(), signature: 'short' }, NOW)).toBe(false);
  });
});
