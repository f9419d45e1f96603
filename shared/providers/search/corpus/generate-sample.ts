/**
 * Writes sample-news.jsonl, the sample corpus of the local-corpus search
 * provider: a few hundred technology and business news items built
 * deterministically (fixed seed) from the hand-written story material in
 * sample-stories.ts. Every company, person and figure in it is fictional;
 * the outlets' domains are real-looking so source filters can be tried.
 * Results from it are always labelled `provider: "local-corpus"`.
 *
 *   npx tsx shared/providers/search/corpus/generate-sample.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAMILIES, type Story } from './sample-stories';

const OUTPUT = join(import.meta.dirname, 'sample-news.jsonl');
const SEED = 20_251_117;
const FIRST_DAY = Date.UTC(2025, 0, 1);
const LAST_DAY = Date.UTC(2026, 10, 30);
const DAY_MS = 86_400_000;

/** mulberry32: a small, fast, deterministic PRNG. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

export interface Rng {
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

interface CorpusLine {
  title: string;
  url: string;
  snippet: string;
  content: string;
  published_date: string;
}

function slugOf(title: string, max = 80): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return slug.length <= max ? slug : slug.slice(0, max).replace(/-[^-]*$/, '');
}

function hexOf(rng: Rng, digits: number): string {
  let out = '';
  for (let i = 0; i < digits; i += 1) out += rng.int(0, 15).toString(16);
  return out;
}

const ARS_SECTIONS: Record<string, string> = {
  llm: 'ai',
  research: 'ai',
  enterprise: 'ai',
  regulation: 'tech-policy',
  security: 'security',
  chips: 'gadgets',
  cloud: 'information-technology',
};

/** A URL in the outlet's own pattern. */
function urlOf(domain: string, story: Story, date: Date, rng: Rng, dayIndex: number): string {
  const yyyy = String(date.getUTCFullYear());
  const mm = String(date.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(date.getUTCDate()).padStart(2, '0');
  const slug = slugOf(story.title);
  switch (domain) {
    case 'news.ycombinator.com':
      return `https://news.ycombinator.com/item?id=${42_600_000 + dayIndex * 11_800 + rng.int(0, 11_700)}`;
    case 'techcrunch.com':
      return `https://techcrunch.com/${yyyy}/${mm}/${dd}/${slug}/`;
    case 'www.theverge.com':
      return `https://www.theverge.com/news/${rng.int(600_000, 899_999)}/${slug}`;
    case 'arstechnica.com':
      return `https://arstechnica.com/${ARS_SECTIONS[story.topic] ?? 'tech-policy'}/${yyyy}/${mm}/${slug}/`;
    case 'www.reuters.com':
      return `https://www.reuters.com/${story.topic === 'markets' ? 'markets' : story.topic === 'regulation' ? 'legal' : 'technology'}/${slug}-${yyyy}-${mm}-${dd}/`;
    case 'www.bloomberg.com':
      return `https://www.bloomberg.com/news/articles/${yyyy}-${mm}-${dd}/${slug}`;
    case 'www.wired.com':
      return `https://www.wired.com/story/${slug}/`;
    case 'venturebeat.com':
      return `https://venturebeat.com/${story.topic === 'security' ? 'security' : story.topic === 'cloud' ? 'data-infrastructure' : 'ai'}/${slug}/`;
    case 'www.zdnet.com':
      return `https://www.zdnet.com/article/${slug}/`;
    case 'www.cnbc.com':
      return `https://www.cnbc.com/${yyyy}/${mm}/${dd}/${slugOf(story.title, 60)}.html`;
    case 'www.ft.com':
      return `https://www.ft.com/content/${hexOf(rng, 8)}-${hexOf(rng, 4)}-4${hexOf(rng, 3)}-${rng.pick(['8', '9', 'a', 'b'])}${hexOf(rng, 3)}-${hexOf(rng, 12)}`;
    case 'www.axios.com':
      return `https://www.axios.com/${yyyy}/${mm}/${dd}/${slugOf(story.title, 50)}`;
    case 'siliconangle.com':
      return `https://siliconangle.com/${yyyy}/${mm}/${dd}/${slug}/`;
    case 'www.theregister.com':
      return `https://www.theregister.com/${yyyy}/${mm}/${dd}/${slugOf(story.title, 40).replace(/-/g, '_')}/`;
    case 'www.adweek.com':
      return `https://www.adweek.com/${rng.pick(['brand-marketing', 'media', 'commerce'])}/${slug}/`;
    case 'www.marketingdive.com':
      return `https://www.marketingdive.com/news/${slug}/${rng.int(700_000, 799_999)}/`;
    case 'www.tomshardware.com':
      return `https://www.tomshardware.com/tech-industry/${slug}`;
    case 'www.datacenterdynamics.com':
      return `https://www.datacenterdynamics.com/en/news/${slug}/`;
    case 'www.businessinsider.com':
      return `https://www.businessinsider.com/${slugOf(story.title, 60)}-${yyyy}-${date.getUTCMonth() + 1}`;
    default:
      throw new Error(`No URL pattern for ${domain}`);
  }
}

/** The corpus lines, in publication order. Deterministic: the same seed gives the same file. */
export function generateSample(seed = SEED): CorpusLine[] {
  const rng = createRng(seed);
  const days = Math.round((LAST_DAY - FIRST_DAY) / DAY_MS);
  const titles = new Set<string>();
  const urls = new Set<string>();
  const lines: Array<CorpusLine & { order: number }> = [];
  let order = 0;
  for (const family of FAMILIES) {
    let made = 0;
    for (let attempt = 0; made < family.count; attempt += 1) {
      if (attempt > family.count * 50) throw new Error(`Family ${family.topic} cannot make ${family.count} distinct stories`);
      const dayIndex = rng.int(0, days);
      const date = new Date(FIRST_DAY + dayIndex * DAY_MS);
      const story = family.write(rng, date, made);
      if (titles.has(story.title)) continue;
      const domain = rng.pick(family.domains);
      const url = urlOf(domain, story, date, rng, dayIndex);
      if (urls.has(url)) continue;
      titles.add(story.title);
      urls.add(url);
      lines.push({
        title: story.title,
        url,
        snippet: story.snippet,
        content: story.paragraphs.join('\n\n'),
        published_date: date.toISOString().slice(0, 10),
        order: order++,
      });
      made += 1;
    }
  }
  lines.sort((a, b) => a.published_date.localeCompare(b.published_date) || a.order - b.order);
  return lines.map(({ order: _order, ...line }) => line);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const lines = generateSample();
  writeFileSync(OUTPUT, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  process.stdout.write(`Wrote ${lines.length} documents to ${OUTPUT}\n`);
}
