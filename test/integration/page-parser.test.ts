import { createPageParser, type WorkerPageParser } from '../../shared/providers/web/page-parser';
import { PageFetchError } from '../../shared/providers/web/errors';
import { eventually } from '../support/eventually';

const ARTICLE = `<html><head><title>Orders double</title></head><body><nav>MENU</nav><article><h1>Orders double</h1>
<p>The chipmaker said orders for AI accelerators doubled this year, driven by cloud providers building data centers for large language models.</p>
<p>It will open a plant in Ohio next year and expects supply to stay tight until then, according to its chief executive.</p></article></body></html>`;

/** Readability needs tens of seconds for this one: deep nesting is what makes it slow. */
const SLOW_PAGE = `<html><body>${'<div>'.repeat(1_500)}<p>deep</p>${'</div>'.repeat(1_500)}</body></html>`;

const gone = (parser: WorkerPageParser) =>
  eventually(
    async () => {
      const workers = parser.workers();
      return workers.busy === 0 && workers.idle === 0 ? workers : undefined;
    },
    5_000,
    'every worker thread to exit',
  );

describe('createPageParser', () => {
  const parsers: WorkerPageParser[] = [];
  const parser = (options: Parameters<typeof createPageParser>[0] = {}) => {
    const created = createPageParser(options);
    parsers.push(created);
    return created;
  };

  afterEach(async () => {
    await Promise.all(parsers.splice(0).map((created) => created.close()));
  });

  it('parses a page in a worker thread, and keeps the worker for the next page', async () => {
    const pages = parser();

    const page = await pages.parse(ARTICLE, { maxChars: 1_000, timeoutMs: 10_000 });
    expect(pages.workers()).toEqual({ busy: 0, idle: 1, waiting: 0 });
    await pages.parse('<p>Second page.</p>', { maxChars: 1_000, timeoutMs: 10_000 });

    expect(page.title).toBe('Orders double');
    expect(page.text).toContain('It will open a plant in Ohio next year');
    expect(page.text).not.toContain('MENU');
    expect(pages.workers()).toEqual({ busy: 0, idle: 1, waiting: 0 });
  });

  it('stops a parse that outlives its time: the worker is terminated, the page fails as timeout', async () => {
    const pages = parser();
    const started = Date.now();

    await expect(pages.parse(SLOW_PAGE, { maxChars: 1_000, timeoutMs: 500 })).rejects.toEqual(
      new PageFetchError('timeout', 'the page could not be read in time'),
    );

    expect(Date.now() - started).toBeLessThan(1_500);
    await gone(pages);
  });

  it('fails a page whose worker dies as unparsable, and never reuses that worker', async () => {
    const pages = parser({ script: new URL('../fakes/crashing-parse-worker.mjs', import.meta.url) });

    await expect(pages.parse(ARTICLE, { maxChars: 1_000, timeoutMs: 10_000 })).rejects.toMatchObject({
      name: 'PageFetchError',
      reason: 'unparsable',
    });

    await gone(pages);
  });

  it('fails a page that needs more than the worker heap as unparsable', async () => {
    const pages = parser({ maxHeapMb: 16 });
    const big = `<html><body>${'<p>Chip makers race to build accelerators for language models.</p>'.repeat(15_000)}</body></html>`;

    await expect(pages.parse(big, { maxChars: 1_000, timeoutMs: 20_000 })).rejects.toMatchObject({
      reason: 'unparsable',
      message: expect.stringContaining('ERR_WORKER_OUT_OF_MEMORY'),
    });

    await gone(pages);
  });

  it('runs at most maxWorkers at once: a page waits for a free worker, within its time', async () => {
    const pages = parser({ maxWorkers: 1 });
    await pages.parse('<p>warm</p>', { maxChars: 100, timeoutMs: 10_000 });

    const slow = pages.parse(SLOW_PAGE, { maxChars: 1_000, timeoutMs: 900 });
    const waiting = pages.parse(ARTICLE, { maxChars: 1_000, timeoutMs: 300 });
    const patient = pages.parse(ARTICLE, { maxChars: 1_000, timeoutMs: 15_000 });
    expect(pages.workers()).toEqual({ busy: 1, idle: 0, waiting: 2 });

    await expect(waiting).rejects.toMatchObject({ reason: 'timeout' });
    await expect(slow).rejects.toMatchObject({ reason: 'timeout' });
    await expect(patient).resolves.toMatchObject({ title: 'Orders double' });
    expect(pages.workers()).toEqual({ busy: 0, idle: 1, waiting: 0 });
  });

  it('terminates a kept worker once it has waited idleMs for a page', async () => {
    const pages = parser({ idleMs: 50 });

    await pages.parse('<p>one page</p>', { maxChars: 100, timeoutMs: 10_000 });

    await gone(pages);
  });

  it('fails at once a page given no time', async () => {
    const pages = parser();

    await expect(pages.parse(ARTICLE, { maxChars: 100, timeoutMs: 0 })).rejects.toMatchObject({ reason: 'timeout' });
    expect(pages.workers()).toEqual({ busy: 0, idle: 0, waiting: 0 });
  });
});
