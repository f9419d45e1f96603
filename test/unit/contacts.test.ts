import { findContacts, samePhone, urlKey } from '../../shared/platform/contacts';

const found = (text: string) => findContacts(text).map(({ kind, text: written, key }) => [kind, written, key]);

describe('findContacts', () => {
  it('finds links with a scheme, www links and bare domains, without the punctuation around them', () => {
    expect(found('See https://Evil.example.com/Deal?x=1. Or (www.cheap-tents.net/promo), or bad-offers.com/now!')).toEqual([
      ['url', 'https://Evil.example.com/Deal?x=1', 'evil.example.com/deal'],
      ['url', 'www.cheap-tents.net/promo', 'cheap-tents.net/promo'],
      ['url', 'bad-offers.com/now', 'bad-offers.com/now'],
    ]);
  });

  it('finds a link or address glued to a word by a colon', () => {
    expect(found('site:https://x.io/a, mailto:Boss@Example.co.uk')).toEqual([
      ['url', 'https://x.io/a', 'x.io/a'],
      ['email', 'Boss@Example.co.uk', 'boss@example.co.uk'],
    ]);
  });

  it('finds phone numbers in the usual formats, keyed by their digits', () => {
    expect(found('Call +1 (415) 555-0199, 415.555.0199, 020 7946 0958, tel:+15551234567 or (555 0100 4).')).toEqual([
      ['phone', '+1 (415) 555-0199', '14155550199'],
      ['phone', '415.555.0199', '4155550199'],
      ['phone', '020 7946 0958', '02079460958'],
      ['phone', '+15551234567', '15551234567'],
      ['phone', '555 0100 4', '55501004'],
    ]);
  });

  it('reads digits inside a link or an address as part of it, not as a phone number', () => {
    expect(found('Track it at https://shop.example/orders/4155550199 or 4155550199@sms.example.com.')).toEqual([
      ['url', 'https://shop.example/orders/4155550199', 'shop.example/orders/4155550199'],
      ['email', '4155550199@sms.example.com', '4155550199@sms.example.com'],
    ]);
  });

  it('skips a run of digits longer than any phone number', () => {
    expect(found('Card 4111 1111 1111 1111 2, ref 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6.')).toEqual([]);
  });

  it('reports where each contact starts', () => {
    const text = 'Mail a@b.example or call +1 415 555 0199 at https://x.io.';
    for (const contact of findContacts(text)) expect(text.slice(contact.index, contact.index + contact.text.length)).toBe(contact.text);
    expect(findContacts(text)).toHaveLength(3);
  });

  it.each([
    'e.g. Node.js, Vue.js, README.md and ASP.NET work too.',
    'Summit Guides Co. and Trailhead Rentals.Thanks for the call.It went well.',
    'On 2026-11-18 or 18.11.2026 we had 1 500 000 visitors and 1.234.567 views.',
    'Budgets of 10.000 - 25.000 EUR, $10k-$25k per year, for 2026-2027.',
    'A 20-minute call, 3.1415926 times better, part ABC1234567 and code 1234567abc.',
    'Six digits 123 456 are too few; so are 12-34-56.',
    'Write to @northwind on social media.',
  ])('finds nothing in ordinary text: %j', (text) => {
    expect(findContacts(text)).toEqual([]);
  });
});

describe('urlKey', () => {
  it('ignores scheme, "www.", case, query and trailing slashes', () => {
    const key = urlKey('northwind-outdoor.example/Book');
    expect(
      [
        'https://www.Northwind-Outdoor.example/book/',
        'http://northwind-outdoor.example/book?ref=mail',
        'www.northwind-outdoor.example/BOOK//',
      ].map(urlKey),
    ).toEqual([key, key, key]);
  });

  it('keys a link by its real host, not by what comes before an "@"', () => {
    expect(urlKey('https://northwind-outdoor.example@evil.example/')).toBe('evil.example');
  });
});

describe('samePhone', () => {
  it('matches the same number with or without country code or trunk zero', () => {
    expect(samePhone('14155550123', '4155550123')).toBe(true);
    expect(samePhone('442079460958', '02079460958')).toBe(true);
    expect(samePhone('14155550123', '14155550123')).toBe(true);
  });

  it('does not match different numbers or short fragments', () => {
    expect(samePhone('14155550123', '14155550124')).toBe(false);
    expect(samePhone('14155550123', '550123')).toBe(false);
  });
});
