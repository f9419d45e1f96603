import { offlineAnalysis, queryTerms, sentimentOf, splitSentences } from '../../../shared/deep-research/analysis-offline';
import { normalizeAnalysis } from '../../../shared/deep-research/analysis-schema';

const TITLE = 'Halcyon AI releases Aster 4, a large language model aimed at coding';
const TEXT =
  'Halcyon AI on Tuesday released Aster 4, the newest member of its family of large language models. ' +
  'The company said the model accepts up to 1 million tokens of context. ' +
  'Developers can use the model through the API at $0.40 per million input tokens, about 30% less than before. ' +
  'Early testers said it followed long instructions more reliably, but cautioned that it still makes up facts on niche questions.';

describe('offlineAnalysis', () => {
  it('builds every field from the text, within the limits', () => {
    const analysis = offlineAnalysis('large language models pricing', { title: TITLE, text: TEXT });

    expect(analysis.summary.length).toBeGreaterThan(0);
    expect(analysis.summary.length).toBeLessThanOrEqual(300);
    expect(analysis.summary.startsWith('Halcyon AI on Tuesday released Aster 4')).toBe(true);
    expect(analysis.key_points.length).toBeGreaterThan(0);
    expect(analysis.key_points.length).toBeLessThanOrEqual(3);
    expect(['positive', 'negative', 'neutral']).toContain(analysis.sentiment);
    expect(Number.isInteger(analysis.relevance_score)).toBe(true);
    expect(analysis.relevance_score).toBeGreaterThanOrEqual(0);
    expect(analysis.relevance_score).toBeLessThanOrEqual(10);
  });

  it('takes its key points from the text, never adding to it, those sharing the query words first', () => {
    const analysis = offlineAnalysis('API price per million tokens', { title: TITLE, text: TEXT });

    for (const point of analysis.key_points) expect(TEXT).toContain(point.replace(/…$/, ''));
    expect(analysis.key_points).toContain(
      'Developers can use the model through the API at $0.40 per million input tokens, about 30% less than before.',
    );
  });

  it('scores relevance by the share of query words in title (full) and text (0.6)', () => {
    const source = { title: TITLE, text: TEXT };

    expect(offlineAnalysis('large language model', source).relevance_score).toBe(10);
    expect(offlineAnalysis('tokens context', source).relevance_score).toBe(6);
    expect(offlineAnalysis('coding tokens', source).relevance_score).toBe(8);
    expect(offlineAnalysis('ransomware hospital', source).relevance_score).toBe(0);
  });

  it('ignores search operators and stop words in the query, and scores 5 when nothing is left', () => {
    const source = { title: TITLE, text: TEXT };

    expect(
      offlineAnalysis('large language models site:theverge.com OR site:wired.com after:2025-01-01 -crypto', source).relevance_score,
    ).toBe(10);
    expect(offlineAnalysis('site:theverge.com the of', source).relevance_score).toBe(5);
    expect([...queryTerms('The latest LLM news site:x.com before:2026-01-01 "GPU prices"')]).toEqual(['llm', 'gpu', 'price']);
  });

  it('reads the tone from a small lexicon', () => {
    expect(sentimentOf('Shares surged after record profit and strong growth')).toBe('positive');
    expect(sentimentOf('The outage disrupted payments; the company warned of losses and faces a lawsuit')).toBe('negative');
    expect(sentimentOf('The company published its annual report on Tuesday')).toBe('neutral');
    expect(
      offlineAnalysis('x', { title: 'Crestline Bank confirms data breach', text: 'Hackers accessed customer data after a breach.' })
        .sentiment,
    ).toBe('negative');
  });

  it('falls back to the title when the text is empty', () => {
    const analysis = offlineAnalysis('anything', { title: 'Quiet launch of a new chip', text: '  ' });

    expect(analysis.summary).toBe('Quiet launch of a new chip');
    expect(analysis.key_points).toEqual(['Quiet launch of a new chip']);
  });

  it('caps a long single sentence at a word boundary', () => {
    const long = `${'word '.repeat(200).trim()}.`;

    const analysis = offlineAnalysis('word', { title: 'Long', text: long });

    expect(analysis.summary.length).toBeLessThanOrEqual(300);
    expect(analysis.summary.endsWith('…')).toBe(true);
    expect(analysis.key_points[0]!.length).toBeLessThanOrEqual(160);
  });
});

describe('splitSentences', () => {
  it('splits after sentence ends followed by a capital, and at line breaks, dropping fragments under 3 words', () => {
    expect(
      splitSentences('Revenue rose 12% to $3.4 billion. Shares jumped. "We are pleased," she said. Next line\nSecond line here now'),
    ).toEqual(['Revenue rose 12% to $3.4 billion.', '"We are pleased," she said.', 'Second line here now']);
  });
});

describe('normalizeAnalysis', () => {
  it('clamps and rounds the score, trims and de-duplicates points, keeps at most 5, strips Markdown', () => {
    const analysis = normalizeAnalysis({
      summary: '**Big news:**   the model\nis out.\u0007',
      key_points: ['- one', '2. two', '• three', 'one', '', 'four', 'five', 'six'],
      sentiment: 'positive',
      relevance_score: 14,
    });

    expect(analysis).toEqual({
      summary: 'Big news: the model is out.',
      key_points: ['one', 'two', 'three', 'four', 'five'],
      sentiment: 'positive',
      relevance_score: 10,
    });
    expect(normalizeAnalysis({ ...analysis, relevance_score: -3 }).relevance_score).toBe(0);
    expect(normalizeAnalysis({ ...analysis, relevance_score: 7.6 }).relevance_score).toBe(8);
    expect(normalizeAnalysis({ ...analysis, relevance_score: Number.NaN }).relevance_score).toBe(0);
  });
});
