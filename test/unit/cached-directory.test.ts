import { cachedSiteDirectory } from '../../shared/sites/cached-directory';
import type { SiteDirectory } from '../../shared/sites/directory';

function countingDirectory(sites: Record<string, { id: string; name: string }>) {
  const reads: string[] = [];
  const directory: SiteDirectory = {
    async getSite(id) {
      reads.push(`site:${id}`);
      return sites[id];
    },
    async getItem(siteId, kind, id) {
      reads.push(`${kind}:${id}`);
      return { id, name: 'x' } as never;
    },
    async listItems(siteId, kind) {
      reads.push(`list:${kind}`);
      return [];
    },
  };
  return { directory, reads };
}

describe('cachedSiteDirectory', () => {
  it('reads a site and its agents once within the time to live, then again after it', async () => {
    let now = 0;
    const { directory, reads } = countingDirectory({ a: { id: 'a', name: 'A' } });
    const cached = cachedSiteDirectory(directory, 1000, () => now);
    await cached.getSite('a');
    await cached.getSite('a');
    await cached.listItems('a', 'agents', 10);
    await cached.listItems('a', 'agents', 10);
    expect(reads).toEqual(['site:a', 'list:agents']);
    now = 1001;
    await cached.getSite('a');
    expect(reads).toEqual(['site:a', 'list:agents', 'site:a']);
  });

  it('never caches leads, nor the absence of a site', async () => {
    const sites: Record<string, { id: string; name: string }> = {};
    const { directory, reads } = countingDirectory(sites);
    const cached = cachedSiteDirectory(directory, 60_000, () => 0);
    expect(await cached.getSite('new')).toBeUndefined();
    sites.new = { id: 'new', name: 'Imported later' };
    expect(await cached.getSite('new')).toEqual({ id: 'new', name: 'Imported later' });
    await cached.getItem('new', 'leads', 'l1');
    await cached.getItem('new', 'leads', 'l1');
    expect(reads.filter((read) => read === 'leads:l1')).toHaveLength(2);
  });
});
