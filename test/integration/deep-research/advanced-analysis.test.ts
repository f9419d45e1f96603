import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { call } from '../../support/http';
import { tempDir } from '../../support/temp-dir';

/**
 * Advanced analysis through the whole research flow, served offline by the
 * local corpus (SEARCH_CORPUS_FILE, no search key): every result points at
 * an address the page reader must refuse (loopback, private, link-local,
 * the metadata address, IPv6 loopback, a name that resolves to loopback).
 * None is ever fetched, and each result is analysed from its snippet; the
 * operation completes.
 */
let runtime: LocalRuntime;
let trap: Server;
let trapHits = 0;
let dir: string;

const PAGES = (port: number) => [
  `http://127.0.0.1:${port}/ai-chips`,
  `http://localhost:${port}/ai-chips-by-name`,
  'http://10.0.0.1/ai-chips-private',
  'http://169.254.169.254/latest/meta-data/ai-chips',
  `http://[::1]:${port}/ai-chips-v6`,
];

beforeAll(async () => {
  trap = createServer((_req, res) => {
    trapHits += 1;
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<html><body><article><p>Secret internal page about AI chips.</p></article></body></html>');
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  const { port } = trap.address() as AddressInfo;
  dir = tempDir('corpus');
  const corpus = join(dir, 'corpus.jsonl');
  await writeFile(
    corpus,
    PAGES(port)
      .map((url, index) =>
        JSON.stringify({
          title: `AI chips report ${index}`,
          url,
          snippet: `Export rules on AI chips tighten, report ${index} says.`,
          content: 'AI chips and export rules.',
          published_date: '2025-06-01',
        }),
      )
      .join('\n'),
  );
  runtime = await startLocalRuntime({
    port: 0,
    scheduleEveryMs: 0,
    settings: {
      LOG_LEVEL: 'SILENT',
      OPENAI_API_KEY: undefined,
      GOOGLE_CSE_API_KEY: undefined,
      BRAVE_API_KEY: undefined,
      PERPLEXITY_API_KEY: undefined,
      SEARCH_CORPUS_FILE: corpus,
    },
  });
});

afterAll(async () => {
  await runtime?.stop();
  await new Promise((resolve) => trap?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('advanced analysis in a research operation', () => {
  it('never reads a page at a loopback, private, link-local or metadata address, and analyses those results from their snippets', async () => {
    const answer = await call(runtime.url, 'POST', '/api/deepResearch/operation', {
      key: runtime.apiKey,
      headers: { prefer: 'wait=20' },
      body: { operation_type: 'custom_search', query: 'AI chips', include_content_analysis: true, analysis_depth: 'advanced' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, provider: 'local-corpus', analysis_included: true, total_results: 5 });
    const results = answer.body.results as { url: string; snippet: string; content_analysis: { summary: string } }[];
    expect(results.map((result) => result.url).sort()).toEqual(PAGES((trap.address() as AddressInfo).port).sort());
    for (const result of results) {
      expect(result.content_analysis.summary).toContain('Export rules on AI chips tighten');
      expect(result.content_analysis.summary).not.toContain('Secret internal page');
    }
    expect(trapHits).toBe(0);
  });
});
