import * as z from 'zod/mini';
import '../platform/zod-messages';
import { cleanText } from '../platform/text';

/** The tone of a result about its main subject. */
export const SENTIMENTS = ['positive', 'negative', 'neutral'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

/** What content analysis adds to each search result (`content_analysis`), relative to the research query. */
export interface ContentAnalysis {
  /** Plain text, one to three sentences. */
  summary: string;
  /** At most 5 short points, plain text. */
  key_points: string[];
  sentiment: Sentiment;
  /** Integer 0 (unrelated to the query) … 10 (answers it directly). */
  relevance_score: number;
}

/** Most key points kept. */
export const MAX_KEY_POINTS = 5;
const MAX_KEY_POINT_CHARS = 200;
const MAX_SUMMARY_CHARS = 600;

/**
 * One analysis as the model writes it. Deliberately loose on lengths and
 * ranges (strict structured output cannot express them all, and a model
 * that answers 11 or six key points has still answered): normalizeAnalysis
 * clamps and trims afterwards.
 */
const analysisFields = {
  summary: z.string(),
  key_points: z.array(z.string()),
  sentiment: z.enum(SENTIMENTS),
  relevance_score: z.number(),
};

/** The answer of one advanced (per-page) call. */
export const singleAnalysisSchema = z.object(analysisFields);
export type SingleAnalysisAnswer = z.infer<typeof singleAnalysisSchema>;

/**
 * The answer of one basic batch call: one entry per result, naming its
 * index and URL as given. `index` is a plain number (an integer schema
 * would add bounds the strict schema does not need); a fractional index
 * matches no result.
 */
export const batchAnalysisSchema = z.object({
  analyses: z.array(z.object({ index: z.number(), url: z.string(), ...analysisFields })),
});
export type BatchAnalysisAnswer = z.infer<typeof batchAnalysisSchema>;

/**
 * An analysis made safe to return: plain single-spaced text with control
 * characters and Markdown bullets or emphasis removed, the summary and
 * points capped, empty and repeated points dropped, at most 5 points, the
 * score rounded and clamped to 0–10 (0 when it is not a number).
 */
export function normalizeAnalysis(raw: SingleAnalysisAnswer): ContentAnalysis {
  const seen = new Set<string>();
  const keyPoints: string[] = [];
  for (const point of raw.key_points) {
    const text = cap(plain(point).replace(/^(?:[-*•·]|\d+[.)])\s+/, ''), MAX_KEY_POINT_CHARS);
    const key = text.toLowerCase();
    if (!text || seen.has(key)) continue;
    seen.add(key);
    keyPoints.push(text);
    if (keyPoints.length === MAX_KEY_POINTS) break;
  }
  const score = Number.isFinite(raw.relevance_score) ? Math.round(Math.min(10, Math.max(0, raw.relevance_score))) : 0;
  return { summary: cap(plain(raw.summary), MAX_SUMMARY_CHARS), key_points: keyPoints, sentiment: raw.sentiment, relevance_score: score };
}

/** One line of plain text: no control characters, no Markdown emphasis or heading marks, single spaces. */
function plain(text: string): string {
  return cleanText(text)
    .replace(/\*\*|__|`|^#+\s*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Text cut to at most `max` characters at a word boundary, with an ellipsis when cut. */
export function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const boundary = cut.lastIndexOf(' ');
  return `${(boundary > max / 2 ? cut.slice(0, boundary) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}
