import { findPlaceholders, hasPlaceholders, sanitizeValue } from '../../../shared/lead-follow-up/placeholders';

describe('findPlaceholders', () => {
  it.each([
    ['Hi {{first_name}}, thanks!', '{{first_name}}'],
    ['Hi {first_name}, thanks!', '{first_name}'],
    ['Hi ${name}', '${name}'],
    ['Dear [Name],', '[Name]'],
    ['From [Your Company]', '[Your Company]'],
    ['We help <company> grow', '<company>'],
    ['Line one<br>Line two', '<br>'],
    ['Call me at XXX-XXXX', 'XXX'],
    ['Our price is $xxx', 'xxx'],
    ['Lorem ipsum dolor sit amet', 'Lorem'],
    ['Hello %s, welcome', '%s'],
    ['Sign here: ______', '______'],
    ['Date: TBD', 'TBD'],
  ])('finds the slot in %j', (text, slot) => {
    expect(findPlaceholders(text)).toContain(slot);
    expect(hasPlaceholders(text)).toBe(true);
  });

  it('reports a double-brace slot once, in order of appearance', () => {
    expect(findPlaceholders('Hi {{name}} from [Company]')).toEqual(['{{name}}', '[Company]']);
  });

  it.each([
    'Hi Jordan, thanks for your time on Tuesday.',
    'Our XXL tents fit a group of 6 (or more).',
    'Pricing starts at $1,200 per year; 3 > 2 is true.',
    'Email jordan.alvarez@trailhead-rentals.example or call +1 (415) 555-0123.',
    'Boxes of the Xxx brand',
  ])('passes ready-to-send copy: %j', (text) => {
    expect(findPlaceholders(text)).toEqual([]);
  });
});

describe('sanitizeValue', () => {
  it('removes what would read as a slot when lead data is put into copy', () => {
    const cleaned = sanitizeValue('  [Jordan]  {Alvarez} <ceo> XXX  ____ ');
    expect(cleaned).toBe('Jordan Alvarez ceo');
    expect(hasPlaceholders(cleaned)).toBe(false);
  });
});
