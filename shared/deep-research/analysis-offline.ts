import { cap, normalizeAnalysis, type ContentAnalysis, type Sentiment } from './analysis-schema';
import { wordRunsOf } from '../platform/text';

/**
 * The deterministic content analysis used when no model is configured, and
 * for any result a model's answer left out. It only rearranges what the
 * result says, never adds to it:
 * - summary: the first sentences of the text (snippet, or page text), up to about 300 characters;
 * - key_points: up to 3 sentences of the text, those sharing most words with the query first, in text order;
 * - sentiment: a count of positive and negative words from a small business-news lexicon;
 * - relevance_score: the share of the query's words found in the result, title matches counting fully and
 *   text matches 0.6, scaled to 0–10 (5 when the query has no searchable words).
 */
export function offlineAnalysis(query: string, source: { title: string; text: string }): ContentAnalysis {
  const title = source.title.trim();
  const sentences = splitSentences(source.text);
  const material = sentences.length > 0 ? sentences : title ? [title] : [];
  const terms = queryTerms(query);

  return normalizeAnalysis({
    summary: summaryOf(material),
    key_points: keyPointsOf(material, terms),
    sentiment: sentimentOf(`${title} ${source.text}`),
    relevance_score: relevanceOf(terms, title, source.text),
  });
}

const SUMMARY_CHARS = 300;
const OFFLINE_KEY_POINTS = 3;
const KEY_POINT_CHARS = 160;

function summaryOf(sentences: readonly string[]): string {
  let summary = '';
  for (const sentence of sentences) {
    const next = summary ? `${summary} ${sentence}` : sentence;
    if (summary && next.length > SUMMARY_CHARS) break;
    summary = next;
    if (summary.length >= SUMMARY_CHARS / 2) break;
  }
  return cap(summary, SUMMARY_CHARS);
}

function keyPointsOf(sentences: readonly string[], terms: ReadonlySet<string>): string[] {
  const ranked = sentences
    .map((sentence, position) => ({ sentence, position, overlap: overlap(terms, sentence) }))
    .sort((a, b) => b.overlap - a.overlap || a.position - b.position)
    .slice(0, OFFLINE_KEY_POINTS)
    .sort((a, b) => a.position - b.position);
  return ranked.map(({ sentence }) => cap(sentence, KEY_POINT_CHARS));
}

function overlap(terms: ReadonlySet<string>, text: string): number {
  const words = new Set(wordsOf(text));
  let count = 0;
  for (const term of terms) if (words.has(term)) count += 1;
  return count;
}

/**
 * Sentences of a text: split after `.`, `!` or `?` (and a closing quote)
 * followed by a space and a capital, digit or quote, and at line breaks;
 * fragments under 3 words are dropped unless they are all there is.
 */
export function splitSentences(text: string): string[] {
  const pieces = text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?][”"')\]]?)\s+(?=[A-Z0-9“"'(])/))
    .map((piece) => piece.replace(/\s+/g, ' ').trim())
    .filter((piece) => piece.length > 0);
  const full = pieces.filter((piece) => piece.split(' ').length >= 3);
  return full.length > 0 ? full : pieces;
}

// ---------------------------------------------------------------- sentiment

const POSITIVE = new Set(
  (
    'gain gains gained growth grow grows grew growing rise rises rose rising surge surges surged jump jumps jumped record beat beats ' +
    'strong stronger strongest improve improves improved improvement launch launches launched win wins won expand expands expanded ' +
    'success successful breakthrough profit profits profitable boost boosts boosted welcome welcomed faster cheaper better benefit ' +
    'benefits benefited opportunity opportunities innovative upgrade partnership secures secured lands approve approved approval ' +
    'recovery rally rallied optimistic outperform outperforms outperformed exceeds exceeded ahead milestone savings saves efficient'
  ).split(' '),
);

const NEGATIVE = new Set(
  (
    'loss losses lose loses lost decline declines declined falling fall falls fell drop drops dropped slump slumps plunge plunged ' +
    'layoff layoffs laying lawsuit lawsuits sued sue sues fine fined fines penalty breach breaches hack hacked hackers attack attacks ' +
    'attackers ransomware outage outages disrupts disrupted disruption failure failures fail fails failed weak weaker warn warns warned ' +
    'warning risk risks concern concerns probe investigation ban banned delay delays delayed shortage shortages vulnerability exploit ' +
    'exploited wrong errors slowdown struggle struggles struggling miss misses missed crash crashes halt halts halted recall fraud ' +
    'criticism critics pause pauses paused lag lags degrade degrades decliners downturn slide slides'
  ).split(' '),
);

/** positive when positive words outnumber negative ones, negative when the reverse, else neutral. */
export function sentimentOf(text: string): Sentiment {
  let score = 0;
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    if (POSITIVE.has(word)) score += 1;
    else if (NEGATIVE.has(word)) score -= 1;
  }
  return score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral';
}

// ---------------------------------------------------------------- relevance

const STOP_WORDS = new Set(
  'a an and are as at be by for from has have in into is it its of on or not that the their this to was were will with about over after what which who how why news latest'.split(
    ' ',
  ),
);

/** Words of a text, lower case, with a plain English plural `s` dropped so `model` meets `models`. */
function wordsOf(text: string, skip: ReadonlySet<string> = new Set()): string[] {
  return wordRunsOf(text.toLowerCase())
    .filter((word) => !skip.has(word))
    .map(stem);
}

function stem(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** The searchable words of a query: operators (`site:`, `after:`, `before:`, `OR`, `-exclusions`) and stop words left out. */
export function queryTerms(query: string): Set<string> {
  const words = query
    .split(/\s+/)
    .filter((token) => token && !/^-|^[a-z]+:/i.test(token) && token !== 'OR' && token !== 'AND' && token !== '|')
    .join(' ');
  return new Set(wordsOf(words, STOP_WORDS));
}

function relevanceOf(terms: ReadonlySet<string>, title: string, text: string): number {
  if (terms.size === 0) return 5;
  const inTitle = new Set(wordsOf(title));
  const inText = new Set(wordsOf(text));
  let matched = 0;
  for (const term of terms) {
    if (inTitle.has(term)) matched += 1;
    else if (inText.has(term)) matched += 0.6;
  }
  return Math.round((10 * matched) / terms.size);
}
