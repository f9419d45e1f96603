import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { measureHtml, nestingWeight, type HtmlShapeLimits } from '../../shared/providers/web/html-shape';
import { createPageParser } from '../../shared/providers/web/page-parser';
import { PAGE_PARSE_WORKER } from '../../shared/providers/web/parse-worker-bundle';
import { markdownTable, median } from './table';

/**
 * Bench part `parse`: what the page reader's caps (maxElements 10,000,
 * maxDepth 128, maxNesting 100,000) let through costs to parse. Each shape
 * is grown until one more unit would pass a cap (or 1 MiB), then parsed by
 * the page parse worker bundled as the CDK construct bundles it, in a fresh
 * worker (the compiled code cold, as for a Lambda's first pages) and once
 * more in the same worker (warm); median of BENCH_PARSE_RUNS (3). The shapes
 * are the costly ones found: many elements, text inside nesting, and nesting
 * with under 500 characters of text, where Readability tries 4 times. Last,
 * the linear scan that refuses pages over the caps, on the page of the issue.
 */
const RUNS = Number(process.env.BENCH_PARSE_RUNS ?? 3);
const ROOT = resolve(import.meta.dirname, '..', '..');
const CAPS: HtmlShapeLimits = { maxElements: 10_000, maxDepth: 128, maxNesting: 100_000 };
const MAX_BYTES = 1_048_576;

const sentence = 'Chip makers race to build accelerators as cloud demand outstrips supply. ';
const page = (body: string) => `<html><head><title>Bench</title></head><body>${body}</body></html>`;
const nest = (depth: number, inner: string) => `${'<div>'.repeat(depth)}${inner}${'</div>'.repeat(depth)}`;

/** The largest page `make(n)` within the caps and 1 MiB. */
function atCaps(make: (n: number) => string): string {
  let low = 1;
  let high = 20_000;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const html = make(mid);
    if (measureHtml(html, CAPS).over || html.length > MAX_BYTES) high = mid - 1;
    else low = mid;
  }
  return make(low);
}

const SHAPES: Record<string, () => string> = {
  'paragraphs of text': () => atCaps((n) => page(`<p>${sentence}</p>`.repeat(n))),
  'one-word paragraphs': () => atCaps((n) => page('<p>w</p>'.repeat(n))),
  'text split by <br><br>': () => atCaps((n) => page(`<div>${`${sentence}<br><br>`.repeat(n)}</div>`)),
  'table cells': () => atCaps((n) => page(`<table>${`<tr>${'<td>cell</td>'.repeat(9)}</tr>`.repeat(n)}</table>`)),
  'paragraphs in 8 divs': () => atCaps((n) => page(nest(8, `<p>${sentence}</p>`.repeat(n)))),
  'one-word paragraphs in 8 divs': () => atCaps((n) => page(nest(8, '<p>w</p>'.repeat(n)))),
  'text block in 64 divs': () => atCaps((n) => page(nest(64, `<p>${sentence.repeat(n)}</p>`))),
  '125 nested divs': () => page(nest(125, 'x')),
  'paragraphs in 120 divs': () => atCaps((n) => page(nest(120, `<p>${sentence}</p>`.repeat(n)))),
  ...Object.fromEntries(
    [12, 20, 32, 64, 120].map((depth) => [
      `text-poor: ${depth}-deep div chains`,
      () => atCaps((n) => page(nest(depth, 'x').repeat(Math.min(n, 490)))),
    ]),
  ),
};

const outdir = await mkdtemp(join(tmpdir(), 'switchboard-parse-'));
try {
  const script = join(outdir, PAGE_PARSE_WORKER.bundle);
  await build({
    entryPoints: [join(ROOT, PAGE_PARSE_WORKER.source)],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    minify: true,
    logLevel: 'error',
  });
  const rows: string[][] = [];
  for (const [name, make] of Object.entries(SHAPES)) {
    const html = make();
    const shape = measureHtml(html, CAPS);
    const spawn: number[] = [];
    const cold: number[] = [];
    const warm: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const parser = createPageParser({ script: pathToFileURL(script), maxWorkers: 1 });
      const options = { maxChars: 20_000, timeoutMs: 120_000 };
      let started = performance.now();
      await parser.parse(page('<p>first page</p>'), options);
      spawn.push(performance.now() - started);
      started = performance.now();
      await parser.parse(html, options);
      cold.push(performance.now() - started);
      started = performance.now();
      await parser.parse(html, options);
      warm.push(performance.now() - started);
      await parser.close();
    }
    rows.push([
      name,
      (html.length / 1024).toFixed(0),
      String(shape.elements),
      String(shape.maxDepth),
      nestingWeight(shape).toFixed(0),
      median(spawn).toFixed(0),
      median(cold).toFixed(0),
      median(warm).toFixed(0),
    ]);
  }
  const deep = page(nest(4_000, '<p>deep</p>'));
  const scans: number[] = [];
  for (let run = 0; run < 20; run++) {
    const started = performance.now();
    measureHtml(deep, CAPS);
    scans.push(performance.now() - started);
  }
  process.stdout.write(
    [
      `## Page parsing at the reader's caps (${CAPS.maxElements} elements, ${CAPS.maxDepth} deep, nesting weight ${CAPS.maxNesting}; bundled worker; median of ${RUNS})`,
      '',
      markdownTable(['page', 'KiB', 'elements', 'depth', 'weight', 'worker start ms', 'parse ms (cold)', 'parse ms (warm)'], rows),
      '',
      `4,000 nested divs (${(deep.length / 1024).toFixed(0)} KiB) refused by the scan in ${median(scans).toFixed(2)} ms (median of 20), unparsed.`,
      '',
    ].join('\n'),
  );
} finally {
  await rm(outdir, { recursive: true, force: true });
}
