import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type MiniSearch from 'minisearch';
import * as z from 'zod/mini';
import '../../platform/zod-messages';
import type { SearchHit, SearchPage, SearchProvider, SearchQuery } from './port';
import { wordRunsOf } from '../../platform/text';
import { lazy } from '../../platform/memo';

/** Absolute path of the shipped sample corpus (technology and business news; sample data, labelled `local-corpus` in every result). */
export const DEFAULT_CORPUS_FILE = join(import.meta.dirname, 'corpus', 'sample-news.jsonl');

/** Name recorded on the command when the local corpus served. */
export const LOCAL_CORPUS_PROVIDER = 'local-corpus';

/** One line of a corpus file (built on first use: the corpus serves only when no search provider is configured). */
const corpusDocumentSchema = lazy(() =>
  z.object({
    title: z.string().check(z.trim(), z.minLength(1)),
    url: z.url({ protocol: /^https?$/ }),
    snippet: z.string().check(z.trim()),
    content: z._default(z.string().check(z.trim()), ''),
    published_date: z.nullish(z.iso.date()),
  }),
);

/** A document of a local corpus, as the file holds it. */
export type CorpusDocument = z.infer<ReturnType<typeof corpusDocumentSchema>>;

/** The corpus file cannot be used: missing, unreadable, a malformed or duplicate line (named by its number). */
export class CorpusFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CorpusFileError';
  }
}

interface LoadedDocument extends CorpusDocument {
  /** Host without `www.`, lower case. */
  host: string;
  /** Title, snippet and content in lower case, for keyword checks. */
  text: string;
}

interface Corpus {
  documents: LoadedDocument[];
  index: MiniSearch<{ id: number; title: string; snippet: string; content: string }>;
}

/** Words too common to rank on; dropped from the index and from queries alike. */
const STOP_WORDS = new Set(
  'a an and are as at be by for from has have in into is it its of on or that the their this to was were will with about over after new says said'.split(
    ' ',
  ),
);

/** Corpora loaded in this process, by absolute path: each file is read and indexed once. */
const loaded = new Map<string, Promise<Corpus>>();

/**
 * SearchProvider `local-corpus`: full-text search (minisearch: BM25 with
 * field boosts, prefix and fuzzy matching) over a JSONL file of documents
 * `{title, url, snippet, content, published_date}`. It serves research with
 * no search credentials at all (`npm start`). The file is read and indexed
 * on the first search, once per process and file; a malformed line fails
 * that search loudly with CorpusFileError naming the line (it is not a
 * SearchProviderError: a broken corpus is a deployment fault, not a
 * provider to pass over).
 *
 * Filters, all applied before `maxResults`: `sources` (the host equals a
 * source or is a subdomain of it; `www.` ignored), `keywords` (each must
 * appear, as whole words, in title, snippet or content), `dateFrom`/`dateTo`
 * (published_date within, inclusive; undated documents are left out when a
 * date bound is set). Hits are ordered by score; with no searchable word
 * in terms or keywords (none, or stop words only), every document the
 * filters admit, newest first. Costs no requests.
 *
 * @param options.file the corpus (SEARCH_CORPUS_FILE); blank or absent: DEFAULT_CORPUS_FILE.
 *   A Lambda bundle must ship the file: copy it next to the bundle as `corpus/sample-news.jsonl`, or set the path.
 */
export function createLocalCorpusProvider(options: { file?: string } = {}): SearchProvider {
  const file = resolve(options.file?.trim() || DEFAULT_CORPUS_FILE);
  return {
    name: LOCAL_CORPUS_PROVIDER,
    async search(query: SearchQuery): Promise<SearchPage> {
      const corpus = await loadCorpus(file);
      return { hits: searchCorpus(corpus, query), requests: 0 };
    },
  };
}

function searchCorpus({ documents, index }: Corpus, query: SearchQuery): SearchHit[] {
  const sources = query.sources.map(normalizeHost).filter((source) => source.length > 0);
  const keywords = query.keywords.map((keyword) => wordPattern(keyword)).filter((pattern) => pattern !== undefined);
  const admits = (doc: LoadedDocument): boolean =>
    (sources.length === 0 || sources.some((source) => doc.host === source || doc.host.endsWith(`.${source}`))) &&
    keywords.every((pattern) => pattern.test(doc.text)) &&
    withinDates(doc.published_date ?? undefined, query.dateFrom, query.dateTo);

  const text = [query.terms, ...(searchable(query.terms) ? [] : query.keywords)].join(' ').trim();
  const matched = searchable(text)
    ? index.search(text, { filter: (result) => admits(documents[result.id as number]!) }).map((result) => documents[result.id as number]!)
    : documents.filter(admits).sort(newestFirst);
  return matched.slice(0, Math.max(0, query.maxResults)).map(toHit);
}

function toHit(doc: LoadedDocument): SearchHit {
  return { title: doc.title, url: doc.url, snippet: doc.snippet, ...(doc.published_date ? { publishedDate: doc.published_date } : {}) };
}

function newestFirst(a: LoadedDocument, b: LoadedDocument): number {
  return (b.published_date ?? '').localeCompare(a.published_date ?? '');
}

function withinDates(date: string | undefined, from: string | undefined, to: string | undefined): boolean {
  if (!from && !to) return true;
  if (!date) return false;
  return (!from || date >= from) && (!to || date <= to);
}

/** Host in lower case without `www.`; a source given as a URL is reduced to its host. */
function normalizeHost(value: string): string {
  let host = value.trim().toLowerCase();
  if (host.includes('://')) {
    try {
      host = new URL(host).hostname;
    } catch {
      return '';
    }
  }
  host = host.split('/')[0]!.replace(/\.$/, '');
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** A case-insensitive whole-word pattern of a keyword (a phrase's spaces match any whitespace). */
function wordPattern(keyword: string): RegExp | undefined {
  const words = keyword.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  const body = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'u');
}

/** True when the text holds a word the index can search (not only stop words or punctuation). */
function searchable(text: string): boolean {
  return wordRunsOf(text).some((word) => processTerm(word) !== null);
}

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : lower;
}

function loadCorpus(file: string): Promise<Corpus> {
  let pending = loaded.get(file);
  if (!pending) {
    pending = readCorpus(file);
    loaded.set(file, pending);
    pending.catch(() => loaded.delete(file));
  }
  return pending;
}

async function readCorpus(file: string): Promise<Corpus> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : 'error';
    throw new CorpusFileError(`Cannot read the search corpus ${file} (${code})`, { cause: error });
  }
  const documents = parseCorpus(raw, file);
  // Read with the corpus: only deployments without a search provider search it.
  const { default: MiniSearchIndex } = await import('minisearch');
  const index = new MiniSearchIndex<{ id: number; title: string; snippet: string; content: string }>({
    fields: ['title', 'snippet', 'content'],
    processTerm,
    searchOptions: {
      boost: { title: 3, snippet: 2, content: 1 },
      prefix: (term) => term.length >= 3,
      fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
      combineWith: 'OR',
    },
  });
  index.addAll(documents.map((doc, id) => ({ id, title: doc.title, snippet: doc.snippet, content: doc.content })));
  return { documents, index };
}

/**
 * The documents of a JSONL corpus. Blank lines are skipped; a line that is
 * not JSON, not a valid document, or repeats a URL throws CorpusFileError
 * naming the file and the line number.
 */
export function parseCorpus(raw: string, file = 'corpus'): LoadedDocument[] {
  const documents: LoadedDocument[] = [];
  const firstLineOf = new Map<string, number>();
  raw.split('\n').forEach((line, position) => {
    const lineNumber = position + 1;
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new CorpusFileError(`${file} line ${lineNumber}: not JSON`);
    }
    const parsed = corpusDocumentSchema().safeParse(json);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(line)'}: ${issue.message}`).join('; ');
      throw new CorpusFileError(`${file} line ${lineNumber}: not a corpus document (${problems})`);
    }
    const doc = parsed.data;
    const earlier = firstLineOf.get(doc.url);
    if (earlier !== undefined) throw new CorpusFileError(`${file} line ${lineNumber}: url repeats line ${earlier}`);
    firstLineOf.set(doc.url, lineNumber);
    documents.push({
      ...doc,
      host: normalizeHost(new URL(doc.url).hostname),
      text: `${doc.title}\n${doc.snippet}\n${doc.content}`.toLowerCase(),
    });
  });
  return documents;
}
