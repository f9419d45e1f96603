import { CrmCredentialsError, CrmRateLimitedError, CrmRejectedError, CrmUnavailableError } from '../../../shared/providers/crm/errors';
import { HUBSPOT_SCOPES, hubspotCrm, TOKEN_INFO_PATH } from '../../../shared/providers/crm/hubspot';
import { FAKE_PREFIX } from '../../fakes/loopback';
import { startHubSpotFake, type HubSpotFake } from '../../fakes/hubspot';

let fake: HubSpotFake;

beforeEach(async () => {
  fake = await startHubSpotFake();
});

afterEach(async () => {
  await fake.close();
});

/** A client of the fake's default token; short retry delays keep failure paths quick. */
const clientOf = (token = fake.token, policy = {}) =>
  hubspotCrm({ baseUrl: fake.baseUrl, policy: { transientRetryDelayMs: 50, ...policy } }).connect({ accessToken: token });

async function failureOf(work: Promise<unknown>): Promise<Error> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

const crmPaths = () => fake.requests.map((request) => `${request.method} ${request.path.slice(FAKE_PREFIX.length)}`);

describe('hubspotCrm against the loopback HubSpot fake', () => {
  it('verifies a private app token: its portal and scopes, below the base URL path prefix', async () => {
    const account = await clientOf().verify();

    expect(account).toEqual({ accountId: String(fake.portalId), scopes: [...HUBSPOT_SCOPES.required, ...HUBSPOT_SCOPES.optional].sort() });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.path).toBe(`${FAKE_PREFIX}${TOKEN_INFO_PATH}`);
    expect(fake.requests[0]!.body).toEqual({ tokenKey: fake.token });
  });

  it("refuses an unknown token with HubSpot's reason, and a token without the contacts scopes with the ones missing", async () => {
    const refused = await failureOf(clientOf('pat-na1-00000000-0000-0000-0000-000000000000').verify());
    expect(refused).toBeInstanceOf(CrmCredentialsError);
    expect((refused as CrmCredentialsError).reason).toBe('The access token is invalid, expired or has been revoked.');

    fake.addToken('pat-na1-lists-only', { scopes: ['crm.lists.read'] });
    const narrow = await failureOf(clientOf('pat-na1-lists-only').verify());
    expect(narrow).toBeInstanceOf(CrmCredentialsError);
    expect((narrow as CrmCredentialsError).reason).toContain('crm.objects.contacts.read, crm.objects.contacts.write');
    expect(narrow.message).not.toContain('pat-na1-lists-only');
  });

  it('reads contacts with the fields the import maps, and their latest notes and e-mails, newest first', async () => {
    const ada = fake.addContact({
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.com',
      mobilephone: '+14155550199',
      company: 'Analytical Engines',
      jobtitle: 'Head of Research',
      hs_lead_status: 'OPEN',
    });
    const bare = fake.addContact({ email: 'bare@example.com', company: '  ' });
    fake.addEngagement('notes', ada, {
      hs_timestamp: '2026-11-01T10:00:00.000Z',
      hs_note_body: '<p>Asked for <b>pricing</b> &amp; a demo</p>',
    });
    fake.addEngagement('emails', ada, {
      hs_timestamp: '2026-11-03T09:30:00.000Z',
      hs_email_subject: 'Re: pricing',
      hs_email_text: 'Thanks, next week works.',
      hs_email_direction: 'INCOMING_EMAIL',
    });

    const [first, second] = await clientOf().readContacts([ada, 'missing-1', bare], { withActivities: true });

    expect(first).toEqual({
      id: ada,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+14155550199',
      company: 'Analytical Engines',
      jobTitle: 'Head of Research',
      leadStatus: 'OPEN',
      updatedAt: expect.any(String),
      recentActivities: [
        {
          id: expect.any(String),
          kind: 'email',
          at: '2026-11-03T09:30:00.000Z',
          summary: 'Thanks, next week works.',
          subject: 'Re: pricing',
          direction: 'inbound',
        },
        { id: expect.any(String), kind: 'note', at: '2026-11-01T10:00:00.000Z', summary: 'Asked for pricing & a demo' },
      ],
    });
    expect(second).toEqual({ id: bare, email: 'bare@example.com', updatedAt: expect.any(String), recentActivities: [] });
    const batchRead = fake.requests.find((request) => request.path.endsWith('/crm/v3/objects/contacts/batch/read'))!;
    expect((batchRead.body as { properties: string[] }).properties).toEqual(
      expect.arrayContaining(['firstname', 'lastname', 'email', 'phone', 'company', 'jobtitle', 'hs_lead_status']),
    );
    expect(
      fake.requests.every((request) => request.path.includes('oauth') || request.headers.authorization === `Bearer ${fake.token}`),
    ).toBe(true);
  });

  it('leaves e-mails out of the history when the token lacks sales-email-read, keeping the notes', async () => {
    fake.addToken('pat-na1-no-email-scope', { scopes: ['crm.objects.contacts.read', 'crm.objects.contacts.write'] });
    const id = fake.addContact({ email: 'ada@example.com' });
    fake.addEngagement('notes', id, { hs_timestamp: '2026-11-01T10:00:00.000Z', hs_note_body: 'Met at the fair' });
    fake.addEngagement('emails', id, { hs_timestamp: '2026-11-02T10:00:00.000Z', hs_email_text: 'Hello' });

    const contact = await clientOf('pat-na1-no-email-scope').getContact(id, { withActivities: true });

    expect(contact?.recentActivities).toEqual([
      { id: expect.any(String), kind: 'note', at: '2026-11-01T10:00:00.000Z', summary: 'Met at the fair' },
    ]);
    expect(fake.requests.some((request) => request.path.endsWith('/crm/v4/associations/contacts/emails/batch/read'))).toBe(true);
  });

  it("answers the contact search the next parts use (the fake's EQ and IN filters, paged)", async () => {
    const ada = fake.addContact({ email: 'Ada@Example.com', firstname: 'Ada' });
    fake.addContact({ email: 'bob@example.com' });
    const search = (body: unknown) =>
      fetch(`${fake.baseUrl}/crm/v3/objects/contacts/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((response) => response.json() as Promise<{ total: number; results: { id: string; properties: Record<string, string> }[] }>);

    const byEmail = await search({
      filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: 'ada@example.com' }] }],
      properties: ['firstname'],
    });
    expect(byEmail).toMatchObject({ total: 1, results: [{ id: ada, properties: { firstname: 'Ada' } }] });
    expect((await search({ filterGroups: [{ filters: [{ propertyName: 'hs_object_id', operator: 'IN', values: [ada] }] }] })).total).toBe(
      1,
    );
  });

  it('reads one contact, undefined for a deleted one, and pages through all contacts and a list', async () => {
    const ids = Array.from({ length: 5 }, (_, index) => fake.addContact({ email: `lead${index}@example.com` }));
    fake.setList('42', [ids[3]!, ids[1]!, ids[4]!]);
    const client = clientOf();

    expect(await client.getContact(ids[0]!)).toMatchObject({ id: ids[0], email: 'lead0@example.com', recentActivities: [] });
    fake.deleteContact(ids[0]!);
    expect(await client.getContact(ids[0]!)).toBeUndefined();

    const first = await client.listContacts({ limit: 2 });
    expect(first.items.map((contact) => contact.id)).toEqual([ids[1], ids[2]]);
    const second = await client.listContacts({ after: first.next!, limit: 2 });
    expect(second.items.map((contact) => contact.id)).toEqual([ids[3], ids[4]]);
    expect(second.next).toBeUndefined();

    const members = await client.listMembers('42', { limit: 2 });
    expect(members).toEqual({ items: [ids[3], ids[1]], next: '2' });
    expect(await client.listMembers('42', { after: members.next! })).toEqual({ items: [ids[4]] });
    const unknown = await failureOf(client.listMembers('999'));
    expect(unknown).toBeInstanceOf(CrmRejectedError);
    expect((unknown as CrmRejectedError).status).toBe(404);
  });

  it('records a note, an e-mail and a call associated to the contact, and sets its lead status', async () => {
    const id = fake.addContact({ email: 'ada@example.com' });
    const client = clientOf();

    const note = await client.createEngagement({ contactId: id, kind: 'note', body: 'Sent step 1:\nHi <Ada>', at: '2026-11-20T10:00:00Z' });
    await client.createEngagement({ contactId: id, kind: 'email', subject: 'Hello', body: 'Hi Ada', at: '2026-11-20T10:05:00Z' });
    await client.createEngagement({
      contactId: id,
      kind: 'call',
      subject: 'Discovery call',
      body: 'Booked a demo',
      at: '2026-11-20T11:00:00Z',
      durationSeconds: 95,
    });
    await client.setLeadStatus(id, 'ATTEMPTED_TO_CONTACT');

    expect(note).toEqual({ id: fake.engagements('notes')[0]!.id, kind: 'note' });
    expect(fake.engagements('notes')[0]).toMatchObject({
      properties: { hs_timestamp: '2026-11-20T10:00:00.000Z', hs_note_body: 'Sent step 1:<br>Hi &lt;Ada&gt;' },
      associations: [{ contactId: id, typeId: 202 }],
    });
    expect(fake.engagements('emails')[0]).toMatchObject({
      properties: { hs_email_direction: 'EMAIL', hs_email_status: 'SENT', hs_email_subject: 'Hello', hs_email_text: 'Hi Ada' },
      associations: [{ contactId: id, typeId: 198 }],
    });
    expect(fake.engagements('calls')[0]).toMatchObject({
      properties: { hs_call_title: 'Discovery call', hs_call_duration: '95000', hs_call_status: 'COMPLETED' },
      associations: [{ contactId: id, typeId: 194 }],
    });
    expect(fake.contact(id)).toMatchObject({ hs_lead_status: 'ATTEMPTED_TO_CONTACT' });

    const refused = await failureOf(client.setLeadStatus(id, 'NOT_A_STATUS'));
    expect(refused).toBeInstanceOf(CrmRejectedError);
    expect((refused as CrmRejectedError).status).toBe(400);
  });

  it("waits out a 429's Retry-After before trying again, and throws one longer than it waits", async () => {
    const id = fake.addContact({ email: 'ada@example.com' });
    fake.failNext(1, { rateLimited: { retryAfterSeconds: 1 } });

    await clientOf().setLeadStatus(id, 'CONNECTED');

    const [limited, retried] = fake.requests;
    expect(fake.requests).toHaveLength(2);
    expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(1000);
    expect(fake.contact(id)).toMatchObject({ hs_lead_status: 'CONNECTED' });

    fake.failNext(1, { rateLimited: { retryAfterSeconds: 60 } });
    const thrown = await failureOf(clientOf().getContact(id));
    expect(thrown).toBeInstanceOf(CrmRateLimitedError);
    expect((thrown as CrmRateLimitedError).retryAfterSeconds).toBe(60);
    expect(fake.requests).toHaveLength(3);
  });

  it("gives up after the policy's 429 retries", async () => {
    const id = fake.addContact({ email: 'ada@example.com' });
    fake.failNext(Infinity, { rateLimited: { retryAfterSeconds: 0 } });

    const thrown = await failureOf(clientOf(fake.token, { rateLimitRetries: 2 }).getContact(id));

    expect(thrown).toBeInstanceOf(CrmRateLimitedError);
    expect(fake.requests).toHaveLength(3);
  });

  it('retries a read once after a 5xx, never a create; a timeout and a dropped connection are unavailable', async () => {
    const id = fake.addContact({ email: 'ada@example.com' });
    fake.failNext(1, 'server_error');
    expect(await clientOf().getContact(id)).toMatchObject({ id });
    expect(fake.requests).toHaveLength(2);

    fake.failNext(1, 'bad_gateway');
    const created = await failureOf(clientOf().createEngagement({ contactId: id, kind: 'note', body: 'x', at: '2026-11-20T10:00:00Z' }));
    expect(created).toBeInstanceOf(CrmUnavailableError);
    expect((created as CrmUnavailableError).status).toBe(502);
    expect(fake.requests).toHaveLength(3);
    expect(fake.engagements('notes')).toHaveLength(0);

    fake.failNext(2, { slowMs: 2_000 });
    const slow = await failureOf(clientOf(fake.token, { requestTimeoutMs: 200 }).getContact(id));
    expect(slow).toBeInstanceOf(CrmUnavailableError);
    expect(slow.message).toContain('no answer within 0.2 s');

    fake.failNext(2, { disconnect: true });
    expect(await failureOf(clientOf().getContact(id))).toBeInstanceOf(CrmUnavailableError);
  });

  it('refuses a revoked token on a read as credentials, never repeating the token', async () => {
    fake.addToken('pat-na1-soon-revoked');
    const client = clientOf('pat-na1-soon-revoked');
    fake.revokeToken('pat-na1-soon-revoked');

    const thrown = await failureOf(client.listContacts());

    expect(thrown).toBeInstanceOf(CrmCredentialsError);
    expect((thrown as CrmCredentialsError).status).toBe(401);
    expect(thrown.message).toContain('Authentication credentials not found');
    expect(thrown.message).not.toContain('pat-na1-soon-revoked');
  });

  it('keeps within its rate window: a burst past it waits for the window to roll', async () => {
    const id = fake.addContact({ email: 'ada@example.com' });
    const client = clientOf(fake.token, { requestsPerWindow: 3, windowMs: 600 });

    await Promise.all(Array.from({ length: 4 }, () => client.getContact(id)));

    const times = fake.requests.map((request) => request.at);
    expect(times).toHaveLength(4);
    expect(times[3]! - times[0]!).toBeGreaterThanOrEqual(550);
    expect(crmPaths().every((path) => path === `GET /crm/v3/objects/contacts/${id}`)).toBe(true);
  });
});
