/**
 * Results the search fakes make up from the query they receive, so a test
 * can tell what the adapter asked for from what came back: each position
 * has its own URL (on a `site:` domain of the query, or on a generated
 * news host), two in three carry a publication day inside the asked range,
 * and, when asked, every fifth repeats an earlier URL in a `www.` /
 * trailing-slash variant (the same page by normalized URL).
 */
export interface GeneratedResult {
  /** 0-based position in the whole result list. */
  position: number;
  title: string;
  url: string;
  host: string;
  snippet: string;
  /** YYYY-MM-DD, or absent for the positions without a known date. */
  day?: string;
}

/** What the results are made from. */
export interface ResultSpace {
  /** Words of the query, operators removed. */
  terms: string;
  /** Domains the query restricts to (`site:` operators or a provider filter). */
  sites: readonly string[];
  /** Date range the query restricts to, YYYY-MM-DD. */
  from?: string;
  to?: string;
  /** Results that exist for the query in all. */
  total: number;
  /** Whether every fifth result repeats an earlier page's URL in a variant. */
  duplicates: boolean;
}

const OPERATOR = /\b(?:site|after|before):\S+/g;

/** The query words and `site:` / `after:` / `before:` operators of a query text. */
export function parseQueryText(text: string): { terms: string; sites: string[]; after?: string; before?: string } {
  const sites = [...text.matchAll(/\bsite:([^\s()]+)/g)].map((match) => match[1]!.toLowerCase());
  const after = /\bafter:(\d{4}-\d{2}-\d{2})/.exec(text)?.[1];
  const before = /\bbefore:(\d{4}-\d{2}-\d{2})/.exec(text)?.[1];
  const terms = text
    .replace(OPERATOR, ' ')
    .replace(/[()"]/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && word !== 'OR')
    .join(' ');
  return { terms, sites, ...(after ? { after } : {}), ...(before ? { before } : {}) };
}

/** Results `from` (0-based) up to `from + count - 1`, fewer past the end. */
export function generateResults(space: ResultSpace, from: number, count: number): GeneratedResult[] {
  const results: GeneratedResult[] = [];
  for (let position = from; position < Math.min(from + count, space.total); position++) results.push(resultAt(space, position));
  return results;
}

function resultAt(space: ResultSpace, position: number): GeneratedResult {
  if (space.duplicates && position % 5 === 4) {
    const original = resultAt(space, position - 4);
    return { ...original, position, url: variantOf(original.url) };
  }
  const words = space.terms.toLowerCase().split(/\s+/).filter(Boolean);
  const slug =
    words
      .slice(0, 5)
      .join('-')
      .replace(/[^a-z0-9-]/g, '') || 'results';
  const host = space.sites.length > 0 ? space.sites[position % space.sites.length]! : `news${position % 7}.example.com`;
  const label = space.terms || 'results';
  return {
    position,
    title: `${label}: report ${position + 1}`,
    url: `https://${host}/${slug}/${position + 1}`,
    host,
    snippet: `Report ${position + 1} on ${label}, with details & figures.`,
    ...(position % 3 === 2 ? {} : { day: dayAt(space, position) }),
  };
}

/** The same page by normalized URL: `www.` added (or removed) and a trailing slash. */
function variantOf(url: string): string {
  const parsed = new URL(url);
  parsed.hostname = parsed.hostname.startsWith('www.') ? parsed.hostname.slice(4) : `www.${parsed.hostname}`;
  return `${parsed.href}/`;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function dayAt(space: ResultSpace, position: number): string {
  const to = Date.parse(`${space.to ?? '2025-06-30'}T00:00:00Z`);
  const from = space.from ? Date.parse(`${space.from}T00:00:00Z`) : to - 365 * DAY_MS;
  const span = Math.max(0, Math.round((to - from) / DAY_MS));
  return new Date(to - ((position * 3) % (span + 1)) * DAY_MS).toISOString().slice(0, 10);
}
