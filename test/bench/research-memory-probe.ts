import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import '../../functions/workers/research';
import { measureHtml, type HtmlShapeLimits } from '../../shared/providers/web/html-shape';
import { createPageParser } from '../../shared/providers/web/page-parser';
import { createPageReader } from '../../shared/providers/web/page-reader';
import { markdownTable } from './table';

/**
 * The measurement of bench part `memory` (research-memory.ts), bundled
 * with the research worker's module graph (imported above, as the Lambda
 * bundle holds it) and run by plain node: argv[2] is the bundled parse
 * worker, BENCH_MEMORY_BATCH the records of a batch.
 */
const BATCH = Number(process.env.BENCH_MEMORY_BATCH ?? 5);
const PAGES_PER_RECORD = 4;
const CAPS: HtmlShapeLimits = { maxElements: 10_000, maxDepth: 128, maxNesting: 100_000 };
const MAX_BYTES = 1_048_576;
const MiB = 1024 * 1024;

const sentence = 'Chip makers race to build accelerators as cloud demand outstrips supply. ';
const page = (body: string) => `<html><head><title>Bench</title></head><body>${body}</body></html>`;

/** The largest `make(n)` within the caps and 1 MiB. */
function atCaps(make: (n: number) => string): string {
  let low = 1;
  let high = 200_000;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const html = make(mid);
    if (measureHtml(html, CAPS).over || Buffer.byteLength(html) > MAX_BYTES) high = mid - 1;
    else low = mid;
  }
  return make(low);
}

/** The costliest shapes for memory: the most elements, and the most text, each padded to 1 MiB with an inert comment. */
const PAGES = [
  atCaps((n) => page(`<table>${`<tr>${'<td>cell</td>'.repeat(9)}</tr>`.repeat(n)}</table>`)),
  atCaps((n) => page('<p>w</p>'.repeat(n))),
  atCaps((n) => page(`<p>${sentence}</p>`.repeat(n))),
  atCaps((n) => page(`<div><p>${sentence.repeat(n)}</p></div>`)),
].map((html) => `${html}<!--${'x'.repeat(Math.max(0, MAX_BYTES - Buffer.byteLength(html) - 7))}-->`);

let peakRss = 0;
let peakHeap = 0;
const sampler = setInterval(() => {
  const { rss, heapUsed } = process.memoryUsage();
  peakRss = Math.max(peakRss, rss);
  peakHeap = Math.max(peakHeap, heapUsed);
}, 2);

async function measure(work: () => Promise<unknown>): Promise<{ rss: number; heap: number }> {
  global.gc?.();
  peakRss = process.memoryUsage().rss;
  peakHeap = process.memoryUsage().heapUsed;
  await work();
  return { rss: peakRss, heap: peakHeap };
}

const server = createServer((req, res) => {
  const index = Number(/\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0) % PAGES.length;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(PAGES[index]);
});
try {
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  const parser = createPageParser({ script: pathToFileURL(process.argv[2]!) });
  const readPage = createPageReader({ parser, isAllowedAddress: () => true, timeoutMs: 120_000 });
  const read = (record: number) =>
    Promise.all(Array.from({ length: PAGES_PER_RECORD }, (_, n) => readPage(`http://127.0.0.1:${port}/${record * PAGES_PER_RECORD + n}`)));
  await read(0); // threads started and the parsing code compiled, as on a warm Lambda
  global.gc?.();
  const baseline = { rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed };
  const one = await measure(() => read(1));
  const batch = await measure(() => Promise.all(Array.from({ length: BATCH }, (_, record) => read(record + 2))));
  await parser.close();
  const mib = (bytes: number) => (bytes / MiB).toFixed(0);
  const rows = [
    ['worker loaded, parse threads warm', '0', mib(baseline.rss), mib(baseline.heap)],
    [`1 record (${PAGES_PER_RECORD} pages at once)`, String(PAGES_PER_RECORD), mib(one.rss), mib(one.heap)],
    [`batch of ${BATCH} records in parallel`, String(BATCH * PAGES_PER_RECORD), mib(batch.rss), mib(batch.heap)],
  ];
  const sizes = PAGES.map((html) => measureHtml(html, CAPS))
    .map((shape, index) => `${(Buffer.byteLength(PAGES[index]!) / 1024).toFixed(0)} KiB, ${shape.elements} elements`)
    .join('; ');
  process.stdout.write(
    [
      `## Research worker memory at the page reader's caps (pages: ${sizes}; peak of samples every 2 ms)`,
      '',
      markdownTable(['scenario', 'pages in flight', 'peak RSS MiB', 'peak main heap MiB'], rows),
      '',
      "Goal: a full batch below 75% of the research worker's memoryMb (shared/deep-research/catalogue.ts).",
      '',
    ].join('\n'),
  );
} finally {
  clearInterval(sampler);
  server.close();
}
