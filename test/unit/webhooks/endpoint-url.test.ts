import type { HostLookup } from '../../../shared/platform/http/public-address';
import { jest } from '@jest/globals';
import { isLoopbackAddress, parseEndpointUrl, resolveEndpointAddress } from '../../../shared/webhooks/endpoint-url';
import { EndpointUrlError, LOOKUP_DEADLINE_MS, type EndpointUrlPolicy } from '../../../shared/webhooks/endpoint-url-policy';

/** A lookup answering from a table, as DNS would. */
const dns =
  (table: Record<string, string[]>): HostLookup =>
  async (hostname) => {
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };

const AWS = { allowLoopback: false };
const LOCAL = { allowLoopback: true };

async function refusal(text: string, policy: EndpointUrlPolicy): Promise<string> {
  try {
    await resolveEndpointAddress(parseEndpointUrl(text, policy), policy);
  } catch (error) {
    expect(error).toBeInstanceOf(EndpointUrlError);
    return (error as Error).message;
  }
  throw new Error(`${text} was accepted`);
}

describe('endpoint URLs', () => {
  const lookup = dns({
    'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'mixed.example.com': ['93.184.215.14', '10.0.0.8'],
    'rebind.example.com': ['127.0.0.1'],
    'metadata.example.com': ['169.254.169.254'],
    'mapped.example.com': ['::ffff:127.0.0.1'],
    localhost: ['127.0.0.1', '::1'],
  });

  it('accept https to a host whose every address is public, and answer the address to connect to', async () => {
    await expect(resolveEndpointAddress(parseEndpointUrl('https://hooks.example.com/in?x=1', AWS), { ...AWS, lookup })).resolves.toEqual({
      address: '93.184.215.14',
      family: 4,
    });
    await expect(resolveEndpointAddress(parseEndpointUrl('https://93.184.215.14:8443/in', AWS), AWS)).resolves.toEqual({
      address: '93.184.215.14',
      family: 4,
    });
  });

  it.each([
    ['http://hooks.example.com/in', /must start with https:\/\//],
    ['ftp://hooks.example.com/in', /must start with https:\/\//],
    ['https://user:secret@hooks.example.com/in', /user name or password/],
    ['https://hooks.example.com/in#part', /fragment/],
    ['/relative/path', /not an absolute URL/],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, /longer than 2048/],
  ])('refuse the form of %s', (text, message) => {
    expect(() => parseEndpointUrl(text, AWS)).toThrow(message);
  });

  it.each([
    ['https://mixed.example.com/in', 'a name with one private address among public ones'],
    ['https://rebind.example.com/in', 'a name that resolves to loopback'],
    ['https://metadata.example.com/in', 'a name that resolves to the metadata service'],
    ['https://mapped.example.com/in', 'an IPv4-mapped loopback'],
    ['https://127.0.0.1/in', 'loopback'],
    ['https://[::1]/in', 'IPv6 loopback'],
    ['https://10.0.0.1/in', 'private'],
    ['https://[fd00::1]/in', 'unique local IPv6'],
    ['https://0.0.0.0/in', 'unspecified'],
  ])('refuse %s in AWS (%s)', async (text) => {
    expect(await refusal(text, { ...AWS, lookup })).toMatch(/is not a public internet address\.$/);
  });

  it('say when the host does not resolve', async () => {
    expect(await refusal('https://nowhere.example.com/in', { ...AWS, lookup })).toBe('nowhere.example.com could not be resolved.');
  });

  it('give up on a lookup that hangs, at the lookup deadline', async () => {
    jest.useFakeTimers();
    try {
      const hanging: HostLookup = () => new Promise(() => undefined);
      let answer: string | undefined;
      const refused = refusal('https://slow.example.com/in', { ...AWS, lookup: hanging }).then((message) => (answer = message));
      await jest.advanceTimersByTimeAsync(LOOKUP_DEADLINE_MS - 1);
      expect(answer).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1);
      await refused;
      expect(answer).toBe('slow.example.com could not be resolved.');
    } finally {
      jest.useRealTimers();
    }
  });

  it('allow http and https on loopback under npm start, and nothing private even then', async () => {
    await expect(resolveEndpointAddress(parseEndpointUrl('http://127.0.0.1:4000/in', LOCAL), LOCAL)).resolves.toEqual({
      address: '127.0.0.1',
      family: 4,
    });
    await expect(resolveEndpointAddress(parseEndpointUrl('http://localhost:4000/in', LOCAL), { ...LOCAL, lookup })).resolves.toMatchObject({
      address: '127.0.0.1',
    });
    await expect(resolveEndpointAddress(parseEndpointUrl('https://[::1]:4000/in', LOCAL), LOCAL)).resolves.toEqual({
      address: '::1',
      family: 6,
    });
    await expect(
      resolveEndpointAddress(parseEndpointUrl('https://hooks.example.com/in', LOCAL), { ...LOCAL, lookup }),
    ).resolves.toMatchObject({ address: '93.184.215.14' });
    expect(await refusal('http://10.0.0.1/in', LOCAL)).toMatch(/not a loopback address/);
    expect(await refusal('http://hooks.example.com/in', { ...LOCAL, lookup })).toMatch(/not a loopback address/);
    expect(await refusal('https://192.168.0.10/in', LOCAL)).toMatch(/not a public internet address or a loopback address/);
  });

  it('refuse a loopback endpoint at a port of the runtime itself, by any loopback name, and only on loopback', async () => {
    const local = { ...LOCAL, reservedPorts: new Set([3000, 41234, 80]), lookup };
    for (const text of [
      'http://127.0.0.1:41234/',
      'https://localhost:3000/in',
      'http://[::1]:41234/',
      'http://127.9.9.9:3000/',
      'http://localhost/in',
      'http://mapped.example.com:41234/',
    ]) {
      expect(await refusal(text, local)).toBe(
        `Port ${new URL(text).port || 80} on this machine belongs to Switchboard itself (its API, storage, queues or telephony); point the endpoint at your receiver's port.`,
      );
    }
    await expect(resolveEndpointAddress(parseEndpointUrl('http://127.0.0.1:4000/in', local), local)).resolves.toEqual({
      address: '127.0.0.1',
      family: 4,
    });
    await expect(resolveEndpointAddress(parseEndpointUrl('https://hooks.example.com:3000/in', local), local)).resolves.toMatchObject({
      address: '93.184.215.14',
    });
    // In AWS no loopback address is accepted anyway: the reserved ports change nothing there.
    expect(await refusal('https://127.0.0.1:3000/in', { ...AWS, reservedPorts: new Set([3000]) })).toMatch(
      /not a public internet address\.$/,
    );
  });

  it('tell loopback addresses apart', () => {
    expect(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '[::1]'].map(isLoopbackAddress)).toEqual([true, true, true, true, true]);
    expect(['10.0.0.1', '93.184.215.14', 'localhost', ''].map(isLoopbackAddress)).toEqual([false, false, false, false]);
  });
});
