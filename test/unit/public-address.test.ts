import {
  AddressLookupError,
  AddressRefusedError,
  isPublicAddress,
  resolvePublicAddress,
  type HostLookup,
  type ResolvedAddress,
} from '../../shared/platform/http/public-address';

function lookupOf(table: Record<string, ResolvedAddress[]>): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answers;
  };
  return Object.assign(lookup, { calls });
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e', '::ffff:8.8.8.8'])(
    'admits the public unicast address %s',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['192.0.2.1', 'documentation'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'IPv6 loopback'],
    ['[::1]', 'bracketed IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fd00:ec2::254', 'unique local (EC2 IPv6 metadata)'],
    ['fc00::1', 'unique local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2001:db8::1', 'IPv6 documentation'],
  ])('refuses %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['', 'localhost', 'example.com', '999.1.1.1', 'not an ip'])('refuses %j, which is no IP address', (value) => {
    expect(isPublicAddress(value)).toBe(false);
  });
});

describe('resolvePublicAddress', () => {
  it('returns the checked address of a public name', async () => {
    const lookup = lookupOf({ 'news.example': [v4('93.184.215.14'), v6('2606:2800:21f:cb07:6820:80da:af6b:8b2c')] });

    await expect(resolvePublicAddress('news.example', lookup)).resolves.toEqual(v4('93.184.215.14'));
    expect(lookup.calls).toEqual(['news.example']);
  });

  it.each(['127.0.0.1', '10.0.0.1', '169.254.169.254', '[::1]', '::ffff:127.0.0.1'])(
    'refuses the literal %s without a lookup',
    async (host) => {
      const lookup = lookupOf({});

      await expect(resolvePublicAddress(host, lookup)).rejects.toBeInstanceOf(AddressRefusedError);
      expect(lookup.calls).toEqual([]);
    },
  );

  it('checks legacy numeric forms as the address they name', async () => {
    await expect(resolvePublicAddress('2130706433', lookupOf({}))).rejects.toBeInstanceOf(AddressRefusedError);
    await expect(resolvePublicAddress('0x7f.1', lookupOf({}))).rejects.toBeInstanceOf(AddressRefusedError);
  });

  it('admits a public literal as it is', async () => {
    await expect(resolvePublicAddress('[2606:4700:4700::1111]', lookupOf({}))).resolves.toEqual(v6('2606:4700:4700::1111'));
    await expect(resolvePublicAddress('8.8.8.8', lookupOf({}))).resolves.toEqual(v4('8.8.8.8'));
  });

  it('refuses a name that resolves to loopback, private or metadata addresses', async () => {
    const lookup = lookupOf({
      'loopback.test': [v4('127.0.0.1')],
      'private.test': [v4('10.0.0.1')],
      'metadata.test': [v4('169.254.169.254')],
      'six.test': [v6('::1')],
    });

    for (const host of ['loopback.test', 'private.test', 'metadata.test', 'six.test']) {
      await expect(resolvePublicAddress(host, lookup)).rejects.toEqual(new AddressRefusedError(host));
    }
  });

  it('refuses a name when any one of its addresses is not public', async () => {
    const lookup = lookupOf({ 'mixed.test': [v4('93.184.215.14'), v4('10.0.0.1')] });

    const refusal = resolvePublicAddress('mixed.test', lookup);

    await expect(refusal).rejects.toBeInstanceOf(AddressRefusedError);
    await expect(refusal).rejects.toThrow('mixed.test is not a public internet address');
  });

  it('names the host, not the address, in a refusal', async () => {
    const lookup = lookupOf({ 'sneaky.test': [v4('169.254.169.254')] });

    const error = await resolvePublicAddress('sneaky.test', lookup).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(AddressRefusedError);
    expect((error as Error).message).not.toContain('169.254');
  });

  it('reports a name that does not resolve', async () => {
    await expect(resolvePublicAddress('nowhere.test', lookupOf({}))).rejects.toBeInstanceOf(AddressLookupError);
    await expect(resolvePublicAddress('empty.test', lookupOf({ 'empty.test': [] }))).rejects.toBeInstanceOf(AddressLookupError);
  });

  it('takes another check, for callers that admit more (tests, local webhooks)', async () => {
    const lookup = lookupOf({ 'local.test': [v4('127.0.0.1')] });

    await expect(resolvePublicAddress('local.test', lookup, (ip) => ip === '127.0.0.1')).resolves.toEqual(v4('127.0.0.1'));
  });

  it('resolves localhost with the system resolver and refuses it', async () => {
    await expect(resolvePublicAddress('localhost')).rejects.toBeInstanceOf(AddressRefusedError);
  });
});
