import { dayRange, EARLIEST_DAY, hitOf, httpLink, plainText, publicationDay } from '../../../shared/providers/search/hits';

describe('publicationDay', () => {
  it.each([
    ['2025-04-12', '2025-04-12'],
    ['2025-04-12T14:22:41', '2025-04-12'],
    ['2025-04-12T23:30:00-07:00', '2025-04-12'],
    ['2025-04-12T01:00:00+09:00', '2025-04-12'],
    ['20250412', '2025-04-12'],
    ['April 12, 2025', '2025-04-12'],
    ['Apr 2, 2025', '2025-04-02'],
    ['Sat, 12 Apr 2025 14:22:41 GMT', '2025-04-12'],
    ['  2024-02-29  ', '2024-02-29'],
  ])('reads %j as %s', (text, day) => {
    expect(publicationDay(text)).toBe(day);
  });

  it.each([
    ['2 days ago'],
    ['yesterday'],
    ['2025-02-30'],
    ['2023-02-29'],
    ['20251340'],
    ['not a date 2025 at all'],
    [''],
    [42],
    [null],
    [undefined],
  ])('names no day for %j', (value) => {
    expect(publicationDay(value)).toBeUndefined();
  });
});

describe('plainText', () => {
  it('drops tags, decodes entities and collapses whitespace', () => {
    expect(plainText('<strong>OpenAI</strong> &amp; friends&#39; news &#x2014;\n  today&nbsp;')).toBe("OpenAI & friends' news — today");
  });

  it('leaves unknown entities as they are', () => {
    expect(plainText('a &bogus; b &#0; c')).toBe('a &bogus; b &#0; c');
  });
});

describe('httpLink and hitOf', () => {
  it('keeps absolute http(s) links only', () => {
    expect(httpLink(' https://example.com/a ')).toBe('https://example.com/a');
    expect(httpLink('ftp://example.com/a')).toBeUndefined();
    expect(httpLink('/relative')).toBeUndefined();
  });

  it('builds a hit, titled by its host when the provider gave no title, dated only when known', () => {
    expect(hitOf({ url: 'https://news.example.com/x', snippet: null })).toEqual({
      title: 'news.example.com',
      url: 'https://news.example.com/x',
      snippet: '',
    });
    expect(hitOf({ title: 'T', url: 'https://a.example/', snippet: 'S', date: '2025-01-02' })).toEqual({
      title: 'T',
      url: 'https://a.example/',
      snippet: 'S',
      publishedDate: '2025-01-02',
    });
    expect(hitOf({ title: 'T', url: 'javascript:alert(1)' })).toBeUndefined();
  });
});

describe('dayRange', () => {
  const now = () => Date.parse('2025-06-30T20:00:00Z');

  it('is absent without dates', () => {
    expect(dayRange({}, now)).toBeUndefined();
  });

  it('fills a missing end with the latest today anywhere, and a missing start with the earliest day', () => {
    expect(dayRange({ dateFrom: '2025-01-01' }, now)).toEqual({ from: '2025-01-01', to: '2025-07-01' });
    expect(dayRange({ dateTo: '2025-03-31' }, now)).toEqual({ from: EARLIEST_DAY, to: '2025-03-31' });
    expect(dayRange({ dateFrom: '2025-01-01', dateTo: '2025-03-31' }, now)).toEqual({ from: '2025-01-01', to: '2025-03-31' });
  });
});
