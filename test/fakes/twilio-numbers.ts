import { startLoopbackFake, type LoopbackFake } from './loopback';

/** A number of the fake Twilio account, as IncomingPhoneNumbers lists it. */
export interface FakeIncomingNumber {
  phone_number: string;
  capabilities: { voice: boolean; sms: boolean; mms: boolean; fax: boolean };
  voice_url: string | null;
  status_callback: string | null;
}

export interface TwilioNumbersFake {
  /** Root for TWILIO_API_BASE_URL (with a path prefix). */
  readonly baseUrl: string;
  readonly accountSid: string;
  readonly authToken: string;
  /** The account's numbers; tests change them. */
  readonly numbers: FakeIncomingNumber[];
  readonly requests: LoopbackFake<never>['requests'];
  close(): Promise<void>;
}

/**
 * Loopback stand-in for Twilio's IncomingPhoneNumbers list (GET, Basic auth
 * with the account SID and auth token, `PhoneNumber` filter), answering as
 * Twilio does: a page object, or 401 code 20003.
 */
export async function startTwilioNumbersFake(): Promise<TwilioNumbersFake> {
  const accountSid = `AC${'0123456789abcdef'.repeat(2)}`;
  const authToken = 'fake-auth-token-0123456789';
  const numbers: FakeIncomingNumber[] = [];
  const path = `/2010-04-01/Accounts/${accountSid}/IncomingPhoneNumbers.json`;
  const fake = await startLoopbackFake<never>({
    method: 'GET',
    endpoint: path,
    presets: {},
    answer(request) {
      const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
      if (request.headers.authorization !== expected) {
        return {
          status: 401,
          body: { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 },
        };
      }
      const filter = request.query.PhoneNumber;
      const listed = numbers
        .filter((number) => filter === undefined || number.phone_number === filter)
        .map((number) => ({ ...number, account_sid: accountSid, sid: `PN${'0'.repeat(32)}`, voice_method: 'POST' }));
      return {
        status: 200,
        body: {
          incoming_phone_numbers: listed,
          first_page_uri: `${path}?PhoneNumber=${encodeURIComponent(filter ?? '')}&PageSize=50&Page=0`,
          next_page_uri: null,
          previous_page_uri: null,
          page: 0,
          page_size: 50,
          start: 0,
          end: Math.max(listed.length - 1, 0),
          uri: `${path}?PhoneNumber=${encodeURIComponent(filter ?? '')}&PageSize=50&Page=0`,
        },
      };
    },
  });
  return { baseUrl: fake.baseUrl, accountSid, authToken, numbers, requests: fake.requests, close: () => fake.close() };
}
