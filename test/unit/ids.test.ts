import { isUuid, newId } from '../../shared/platform/ids';

describe('newId', () => {
  it('makes version 7 UUIDs, all different, in increasing order within the process', () => {
    const ids = Array.from({ length: 5000 }, () => newId());

    expect(ids.every((id) => isUuid(id) && id[14] === '7' && '89ab'.includes(id[19]!))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('puts the current time in its first 48 bits', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();

    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after + 1);
  });
});
