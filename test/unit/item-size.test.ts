import { itemSize, prefixWithin, valueSize } from '../../shared/platform/item-size';

describe('itemSize', () => {
  it('counts names and values as DynamoDB does: UTF-8 bytes, numbers by digits, lists and maps with their overhead', () => {
    expect(itemSize({ pk: 'abc' })).toBe(2 + 3);
    expect(itemSize({ text: 'é語😀' })).toBe(4 + 2 + 3 + 4);
    expect(itemSize({ n: 12345 })).toBe(1 + 4);
    expect(itemSize({ n: 0.5 })).toBe(1 + 2);
    expect(itemSize({ yes: true, none: null })).toBe(3 + 1 + 4 + 1);
    expect(itemSize({ list: ['ab', 'c'] })).toBe(4 + 3 + (1 + 2) + (1 + 1));
    expect(itemSize({ map: { a: 'xy', bc: 1 } })).toBe(3 + 3 + (1 + 1 + 2) + (1 + 2 + 2));
    expect(itemSize({ gone: undefined, kept: 'k' })).toBe(4 + 1);
  });

  it('counts a value alone, and a list element with its byte', () => {
    expect(valueSize('abc')).toBe(3);
    expect(valueSize([])).toBe(3);
    expect(prefixWithin(['aaaa', 'bbbb', 'cccc'], 10)).toEqual(['aaaa', 'bbbb']);
    expect(prefixWithin(['a', 'b'.repeat(20), 'c'], 10)).toEqual(['a']);
  });
});
