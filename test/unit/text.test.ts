import { cleanText, cleanTextDeep, groupedDigits, unsafeCharactersIn } from '../../shared/platform/text';

const BIDI = ['\u200E', '\u200F', '\u061C', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
const C0 = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).filter(
  (char) => char !== '\n' && char !== '\t' && char !== '\r',
);
const C1 = Array.from({ length: 33 }, (_, offset) => String.fromCharCode(0x7f + offset));

describe('cleanText', () => {
  it.each([...C0, ...C1, ...BIDI].map((char) => [`U+${char.charCodeAt(0).toString(16).padStart(4, '0')}`, char]))(
    'removes %s',
    (_name, char) => {
      expect(cleanText(`Tents${char} and${char}${char} stoves`)).toBe('Tents and stoves');
    },
  );

  it('keeps newlines, tabs and ordinary text, including non-Latin scripts', () => {
    const text = 'Hola Jordán,\n\tשלום — 你好 ✓';
    expect(cleanText(text)).toBe(text);
  });

  it('turns carriage returns into newlines', () => {
    expect(cleanText('one\r\ntwo\rthree')).toBe('one\ntwo\nthree');
  });

  it('is idempotent', () => {
    const once = cleanText('a\u0000\r\n\u202Eb\u0085c');
    expect(cleanText(once)).toBe(once);
    expect(once).toBe('a\nbc');
  });
});

describe('unsafeCharactersIn', () => {
  it('names each unsafe character once, in order', () => {
    expect(unsafeCharactersIn('a\u202Eb\u0000c\u202E\r')).toEqual(['U+202E', 'U+0000', 'U+000D']);
  });

  it('finds nothing in clean text with newlines and tabs', () => {
    expect(unsafeCharactersIn('Hi Jordan,\n\tsee you soon.')).toEqual([]);
  });
});

describe('cleanTextDeep', () => {
  it('cleans every string of a JSON value, keys included, and leaves other values alone', () => {
    expect(cleanTextDeep({ 'tone\u0000': 'dir\u202Eect', times: ['morn\u2066ings', 3, null, true], nested: { note: 'ok\u0007' } })).toEqual(
      {
        tone: 'direct',
        times: ['mornings', 3, null, true],
        nested: { note: 'ok' },
      },
    );
  });
});

describe('groupedDigits', () => {
  it("groups thousands as toLocaleString('en-US') does, for whole numbers up to 15 digits", () => {
    const numbers = [0, 7, 999, 1_000, 4_000, 10_000, 120_400, 1_000_000, 123_456_789_012_345];
    for (const value of numbers) expect([value, groupedDigits(value)]).toEqual([value, value.toLocaleString('en-US')]);
    expect(groupedDigits(1_234.9)).toBe('1,234');
  });
});
