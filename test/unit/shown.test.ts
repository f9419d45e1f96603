import { MAX_SHOWN_ID_LENGTH, shownId } from '../../shared/platform/shown';

describe('shownId', () => {
  it('repeats an id of up to 100 characters unchanged', () => {
    const id = 'a'.repeat(MAX_SHOWN_ID_LENGTH);
    expect(shownId(id)).toBe(id);
    expect(shownId('0190a5e0-0000-7000-8000-000000000000')).toBe('0190a5e0-0000-7000-8000-000000000000');
  });

  it('cuts a longer id to its first 20 characters and an ellipsis', () => {
    expect(shownId(`${'b'.repeat(20)}${'c'.repeat(81)}`)).toBe(`${'b'.repeat(20)}…`);
  });

  it('removes control and bidi characters, and never splits a surrogate pair', () => {
    expect(shownId('lead\r\nFAKE LOG LINE\u0000\u202e')).toBe('leadFAKE LOG LINE');
    expect(shownId('😀'.repeat(101))).toBe(`${'😀'.repeat(20)}…`);
  });
});
