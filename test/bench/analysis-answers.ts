import type { OpenAiFake } from '../fakes/openai';

/**
 * Sets the model fake to answer deep research's analysis prompts as the model would: one analysis for every result URL
 * the prompt names, in order (a summary, a key point, neutral, relevance 5). The benches that run research through it.
 */
export function answerAnalyses(openai: OpenAiFake): void {
  openai.respondWith((body) => {
    const prompt = body.messages.map((message) => String(message.content)).join('\n');
    const urls = [...new Set([...prompt.matchAll(/https?:\/\/[^\s"\\]+/g)].map((match) => match[0]))];
    return {
      content: {
        analyses: urls.map((url, index) => ({
          index,
          url,
          summary: `Summary ${index}.`,
          key_points: ['A point'],
          sentiment: 'neutral',
          relevance_score: 5,
        })),
      },
    };
  });
}
