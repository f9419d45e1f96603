import { gzipSync } from 'node:zlib';
import { isPublicAddress, type HostLookup, type ResolvedAddress } from '../../shared/platform/http/public-address';
import { measureHtml, nestingWeight } from '../../shared/providers/web/html-shape';
import { createPageParser, type WorkerPageParser } from '../../shared/providers/web/page-parser';
import { lazyPageReader } from '../../shared/providers/web/lazy-page-reader';
import { createPageReader, PageFetchError, PageRefusedError, type PageReaderOptions } from '../../shared/providers/web/page-reader';
import { startFakeWebPages, type FakeWebPages } from '../fakes/web-pages';
import { eventually } from '../support/eventually';

const ARTICLE = `<!doctype html>
<html><head><title>Chip makers race to build AI accelerators | Example Tech</title>
<script>window.tracking = "TRACKING-SCRIPT";</script><style>.nav { color: red }</style></head>
<body>
<nav><a href="/">Home</a> <a href="/cloud">Cloud</a> <a href="/chips">NAV-LINK Chips</a></nav>
<header><div class="masthead">Example Tech MASTHEAD</div></header>
<main><article>
<h1>Chip makers race to build AI accelerators</h1>
<p>Chip makers are racing to build accelerators for large language models, as demand from cloud providers outstrips supply for a third straight quarter.</p>
<p>Analysts expect the shortage to ease next year as new fabrication capacity comes online, though advanced packaging remains a bottleneck for the most capable parts.</p>
<script>console.log("INLINE-SCRIPT")</script>
<p>The companies declined to comment on pricing, but people familiar with the talks said long-term supply contracts now run three to five years.</p>
</article></main>
<aside>Related: SIDEBAR-PROMO</aside>
<footer>Copyright FOOTER-TEXT</footer>
</body></html>`;

/** Test hostnames resolve to the loopback page server; `*.internal.test` names to private and metadata addresses. */
function testLookup(): HostLookup & { calls: string[] } {
  const table: Record<string, ResolvedAddress[]> = {
    'news.test': [{ address: '127.0.0.1', family: 4 }],
    'blog.test': [{ address: '127.0.0.1', family: 4 }],
    'private.internal.test': [{ address: '10.0.0.1', family: 4 }],
    'metadata.internal.test': [{ address: '169.254.169.254', family: 4 }],
    'loopback.internal.test': [{ address: '127.0.0.2', family: 4 }],
    'six.internal.test': [{ address: '::1', family: 6 }],
  };
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answers;
  };
  return Object.assign(lookup, { calls });
}

/** Admits exactly the page server's address, besides public ones: the loopback names and literals of the refusal tests stay refused. */
const admitsTestServer = (ip: string) => ip === '127.0.0.1' || isPublicAddress(ip);

const UNBOUNDED = { maxElements: Infinity, maxDepth: Infinity, maxNesting: Infinity };

/** `depth` nested divs around a paragraph. */
const nested = (depth: number) => `<html><body>${'<div>'.repeat(depth)}<p>Deep inside the page.</p>${'</div>'.repeat(depth)}</body></html>`;

/**
 * Asks `healthUrl` again and again while `reading` runs, as a load balancer
 * would ask the process: how long each answer took (every one waits while
 * the event loop is blocked), and how the reading ended, after how long.
 */
async function askedWhile(reading: Promise<unknown>, healthUrl: string) {
  const started = Date.now();
  let ms: number | undefined;
  const outcome = reading.then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  void outcome.then(() => (ms = Date.now() - started));
  const answers: number[] = [];
  do {
    const asked = Date.now();
    await (await fetch(healthUrl)).text();
    answers.push(Date.now() - asked);
  } while (ms === undefined);
  return { ...(await outcome), ms, answers };
}

describe('createPageReader', () => {
  let pages: FakeWebPages;
  let lookup: ReturnType<typeof testLookup>;
  /** One parser for the file: its workers start once (about 0.6 s each from source), as in a long-lived process. */
  let parser: WorkerPageParser;
  const reader = (options: PageReaderOptions = {}) => createPageReader({ isAllowedAddress: admitsTestServer, lookup, parser, ...options });
  const at = (path: string, host = 'news.test') => `http://${host}:${pages.port}${path}`;

  beforeAll(async () => {
    parser = createPageParser();
    // Starts a worker before the first test: on a loaded machine a cold start alone can outlast a page's time.
    await parser.parse('<html><body><p>Warm.</p></body></html>', { maxChars: 100, timeoutMs: 30_000 });
  }, 40_000);

  afterAll(async () => {
    await parser.close();
  });

  beforeEach(async () => {
    pages = await startFakeWebPages({ '/article': { html: ARTICLE } });
    lookup = testLookup();
  });

  afterEach(async () => {
    await pages.close();
  });

  describe('happy path', () => {
    it('reads an article as its readable text, without navigation, scripts, styles, sidebars or footers', async () => {
      const page = await reader()(at('/article'));

      expect(page.title).toBe('Chip makers race to build AI accelerators');
      expect(page.text).toContain('Chip makers are racing to build accelerators for large language models');
      expect(page.text).toContain('long-term supply contracts now run three to five years.');
      for (const noise of ['TRACKING-SCRIPT', 'INLINE-SCRIPT', 'NAV-LINK', 'MASTHEAD', 'SIDEBAR-PROMO', 'FOOTER-TEXT', 'color: red']) {
        expect(page.text).not.toContain(noise);
      }
      expect(page.text).not.toMatch(/ {2}|\t|\n\n/);
      expect(page.text.split('\n').length).toBeGreaterThanOrEqual(3);
    });

    it('connects to the address it checked, sending the URL host as Host', async () => {
      await reader()(at('/article'));

      expect(lookup.calls).toEqual(['news.test']);
      expect(pages.requests).toHaveLength(1);
      expect(pages.requests[0]!.headers.host).toBe(`news.test:${pages.port}`);
    });

    it('resolves once per hop, so a second DNS answer can never swap the address', async () => {
      let answers = 0;
      const flipping: HostLookup = async () => {
        answers += 1;
        return [{ address: answers === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
      };

      const page = await createPageReader({ isAllowedAddress: admitsTestServer, lookup: flipping, parser })(at('/article'));

      expect(page.text).toContain('large language models');
      expect(answers).toBe(1);
    });

    it('falls back to the body text when no article is found', async () => {
      pages.route('/short', {
        html: '<html><head><title>Status</title></head><body><nav>MENU</nav><p>All systems operational.</p><script>x()</script></body></html>',
      });

      const page = await reader()(at('/short'));

      expect(page).toEqual({ title: 'Status', text: 'All systems operational.' });
    });

    it('reads plain text, gzip bodies and the declared charset', async () => {
      pages.route('/plain', { body: 'Line one.\n\n\n   Line   two.', contentType: 'text/plain; charset=utf-8' });
      pages.route('/gzip', { body: gzipSync(Buffer.from(ARTICLE)), contentType: 'text/html', headers: { 'content-encoding': 'gzip' } });
      pages.route('/latin1', {
        body: Buffer.from(
          '<html><head><title>Caf\u00e9</title></head><body><p>Cr\u00e8me br\u00fbl\u00e9e for everyone.</p></body></html>',
          'latin1',
        ),
        contentType: 'text/html; charset=iso-8859-1',
      });

      await expect(reader()(at('/plain'))).resolves.toEqual({ text: 'Line one.\nLine two.' });
      await expect(reader()(at('/gzip'))).resolves.toMatchObject({ text: expect.stringContaining('three to five years') });
      await expect(reader()(at('/latin1'))).resolves.toEqual({ title: 'Caf\u00e9', text: 'Cr\u00e8me br\u00fbl\u00e9e for everyone.' });
    });

    it('follows redirects to allowed hosts, relative ones included', async () => {
      pages.route('/old', { redirect: at('/moved', 'blog.test'), status: 301 });
      pages.route('/moved', { redirect: '/article', status: 307 });

      const page = await reader()(at('/old'));

      expect(page.text).toContain('large language models');
      expect(lookup.calls).toEqual(['news.test', 'blog.test', 'blog.test']);
      expect(pages.requests.map((r) => r.path)).toEqual(['/old', '/moved', '/article']);
    });

    it('caps the text at maxChars, at a word boundary', async () => {
      const page = await reader({ maxChars: 60 })(at('/article'));

      expect(page.text.length).toBeLessThanOrEqual(60);
      expect(page.text).toMatch(/^Chip makers are racing to build/);
      expect(page.text.endsWith('…')).toBe(true);
    });
  });

  describe('refusals (nothing is requested)', () => {
    it.each([
      ['loopback literal', (port: number) => `http://127.0.0.1:${port}/article`],
      ['private literal', () => 'http://10.0.0.1/'],
      ['metadata literal', () => 'http://169.254.169.254/latest/meta-data/'],
      ['IPv6 loopback literal', (port: number) => `http://[::1]:${port}/article`],
      ['IPv4-mapped loopback', (port: number) => `http://[::ffff:127.0.0.1]:${port}/article`],
      ['decimal loopback', (port: number) => `http://2130706433:${port}/article`],
    ])('refuses a %s with the default check', async (_label, url) => {
      const read = createPageReader({ lookup });

      await expect(read(url(pages.port))).rejects.toBeInstanceOf(PageRefusedError);
      expect(pages.requests).toEqual([]);
    });

    it.each(['loopback.internal.test', 'private.internal.test', 'metadata.internal.test', 'six.internal.test'])(
      'refuses %s, a hostname that resolves to a refused address',
      async (host) => {
        const failure = reader()(at('/article', host));

        await expect(failure).rejects.toBeInstanceOf(PageRefusedError);
        await expect(failure).rejects.toMatchObject({ host, message: `${host} is not a public internet address` });
        expect(pages.requests).toEqual([]);
      },
    );

    it('refuses a name that resolves to the loopback server under the default check', async () => {
      await expect(createPageReader({ lookup })(at('/article'))).rejects.toBeInstanceOf(PageRefusedError);
      expect(pages.requests).toEqual([]);
    });

    it.each([
      ['127.0.0.1', (port: number) => `http://127.0.0.2:${port}/article`],
      ['10.0.0.1', () => 'http://10.0.0.1/admin'],
      ['169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'],
      ['[::1]', (port: number) => `http://[::1]:${port}/article`],
      ['a name resolving to 10.0.0.1', () => 'http://private.internal.test/'],
      ['a name resolving to 169.254.169.254', () => 'http://metadata.internal.test/latest/meta-data/'],
    ])('refuses a redirect to %s, after the allowed first hop', async (_label, target) => {
      pages.route('/jump', { redirect: target(pages.port) });

      await expect(reader()(at('/jump'))).rejects.toBeInstanceOf(PageRefusedError);
      expect(pages.requests.map((r) => r.path)).toEqual(['/jump']);
    });

    it.each(['ftp://news.test/file.txt', 'file:///etc/passwd', 'gopher://news.test/', 'data:text/html,<p>hi</p>', 'javascript:alert(1)'])(
      'refuses the scheme of %s',
      async (url) => {
        await expect(reader()(url)).rejects.toThrow(PageRefusedError);
        expect(lookup.calls).toEqual([]);
      },
    );

    it('refuses a redirect to another scheme', async () => {
      pages.route('/to-file', { redirect: 'file:///etc/passwd' });

      await expect(reader()(at('/to-file'))).rejects.toThrow('only http and https pages are read, not file');
    });

    it('refuses something that is not a URL', async () => {
      await expect(reader()('not a url')).rejects.toBeInstanceOf(PageRefusedError);
    });
  });

  describe('fetch failures', () => {
    it('fails a body larger than the cap, announced or not', async () => {
      pages.route('/big', { html: `<html><body><p>${'x'.repeat(50_000)}</p></body></html>` });
      pages.route('/endless', { drip: { chunkBytes: 4_096, everyMs: 1 } });

      await expect(reader({ maxBytes: 10_000 })(at('/big'))).rejects.toMatchObject({ name: 'PageFetchError', reason: 'too_large' });
      await expect(reader({ maxBytes: 10_000, timeoutMs: 3_000 })(at('/endless'))).rejects.toMatchObject({ reason: 'too_large' });
    });

    it('fails a compressed body that inflates past the cap', async () => {
      pages.route('/bomb', {
        body: gzipSync(Buffer.alloc(2_000_000, 0x61)),
        contentType: 'text/html',
        headers: { 'content-encoding': 'gzip' },
      });

      await expect(reader()(at('/bomb'))).rejects.toMatchObject({ reason: 'too_large' });
    });

    it('reads a body of 1 MiB by default, and fails a larger one', async () => {
      const body = (bytes: number) => `<html><body><p>${'word '.repeat(Math.floor((bytes - 40) / 5))}</p></body></html>`;
      pages.route('/just-under', { html: body(1_000_000) });
      pages.route('/just-over', { html: body(1_100_000) });

      await expect(reader()(at('/just-under'))).resolves.toMatchObject({ text: expect.stringMatching(/^word word/) });
      await expect(reader()(at('/just-over'))).rejects.toMatchObject({ reason: 'too_large' });
    });

    it('gives up at the overall timeout, on a silent server or a slow body', async () => {
      pages.route('/silent', { hang: true });
      pages.route('/slow', { drip: { chunkBytes: 10, everyMs: 50 } });

      const started = Date.now();
      await expect(reader({ timeoutMs: 300 })(at('/silent'))).rejects.toMatchObject({ name: 'PageFetchError', reason: 'timeout' });
      await expect(reader({ timeoutMs: 300 })(at('/slow'))).rejects.toMatchObject({ reason: 'timeout' });
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('counts a slow DNS answer against the timeout', async () => {
      const slowLookup: HostLookup = () =>
        new Promise((resolve) => setTimeout(() => resolve([{ address: '127.0.0.1', family: 4 }]), 1_000));

      await expect(
        createPageReader({ isAllowedAddress: admitsTestServer, lookup: slowLookup, timeoutMs: 100 })(at('/article')),
      ).rejects.toMatchObject({
        reason: 'timeout',
      });
    });

    it('fails a page that is neither HTML nor text', async () => {
      pages.route('/report.pdf', { body: '%PDF-1.7', contentType: 'application/pdf' });
      pages.route('/data', { body: '{"a":1}', contentType: 'application/json' });

      await expect(reader()(at('/report.pdf'))).rejects.toMatchObject({
        reason: 'not_html',
        message: expect.stringContaining('application/pdf'),
      });
      await expect(reader()(at('/data'))).rejects.toMatchObject({ reason: 'not_html' });
    });

    it('fails an error status, naming it', async () => {
      pages.route('/gone', { html: '<p>gone</p>', status: 410 });

      await expect(reader()(at('/missing'))).rejects.toMatchObject({ reason: 'status', status: 404 });
      await expect(reader()(at('/gone'))).rejects.toEqual(new PageFetchError('status', `news.test:${pages.port} answered 410`, 410));
    });

    it('stops after the redirect limit', async () => {
      for (let hop = 0; hop < 7; hop += 1) pages.route(`/hop${hop}`, { redirect: `/hop${hop + 1}` });
      pages.route('/hop7', { html: ARTICLE });

      await expect(reader()(at('/hop0'))).rejects.toMatchObject({ reason: 'redirects' });
      expect(pages.requests).toHaveLength(6);
      await expect(reader({ maxRedirects: 7 })(at('/hop0'))).resolves.toMatchObject({
        text: expect.stringContaining('three to five years'),
      });
    });

    it('reports a name that does not resolve, and a refused connection', async () => {
      await expect(reader()(at('/article', 'nowhere.test'))).rejects.toMatchObject({ reason: 'unresolved' });

      const closedPort = pages.port;
      await pages.close();
      await expect(reader()(`http://news.test:${closedPort}/article`)).rejects.toMatchObject({ reason: 'network' });
      pages = await startFakeWebPages();
    });
  });

  describe('bounded parsing', () => {
    it('fails a 4,000-deep page as too complex, unparsed, well within the page budget, answering /health meanwhile', async () => {
      pages.route('/deep', { html: nested(4_000) });
      pages.route('/health', { body: 'ok', contentType: 'text/plain' });

      const { error, ms, answers } = await askedWhile(reader()(at('/deep')), `${pages.baseUrl}/health`);

      expect(error).toEqual(new PageFetchError('too_complex', 'the page is nested more than 128 elements deep'));
      expect(ms).toBeLessThan(5_000);
      expect(Math.max(...answers)).toBeLessThan(1_000);
      expect(parser.workers().busy).toBe(0);
    });

    it('stops a parse at the page budget, the event loop answering all along, when a slow page gets past the caps', async () => {
      pages.route('/deep', { html: nested(4_000) });
      pages.route('/health', { body: 'ok', contentType: 'text/plain' });
      const ownParser = createPageParser();
      const uncapped = reader({ maxDepth: Infinity, maxNesting: Infinity, timeoutMs: 2_000, parser: ownParser });

      try {
        const { error, ms, answers } = await askedWhile(uncapped(at('/deep')), `${pages.baseUrl}/health`);

        expect(error).toEqual(new PageFetchError('timeout', 'the page could not be read in time'));
        expect(ms).toBeGreaterThanOrEqual(1_900);
        expect(ms).toBeLessThan(3_000);
        expect(answers.length).toBeGreaterThan(10);
        expect(Math.max(...answers)).toBeLessThan(1_000);
        await eventually(async () => (ownParser.workers().busy === 0 ? true : undefined), 5_000, 'the parse worker to exit');
        expect(ownParser.workers()).toEqual({ busy: 0, idle: 0, waiting: 0 });
      } finally {
        await ownParser.close();
      }
    });

    it('reads pages just under each cap, within the default budget', async () => {
      const paragraph = '<p>Chip makers race to build accelerators as cloud demand outstrips supply.</p>';
      const deep = nested(125);
      const many = `<html><body>${paragraph.repeat(9_998)}</body></html>`;
      const heavy = `<html><body>${'<div>'.repeat(17)}${paragraph.repeat(1_530)}${'</div>'.repeat(17)}</body></html>`;
      expect(measureHtml(deep, UNBOUNDED)).toMatchObject({ maxDepth: 128 });
      expect(measureHtml(many, UNBOUNDED)).toMatchObject({ elements: 10_000 });
      expect(nestingWeight(measureHtml(heavy, UNBOUNDED))).toBeGreaterThan(99_000);
      expect(nestingWeight(measureHtml(heavy, UNBOUNDED))).toBeLessThanOrEqual(100_000);
      pages.route('/deep', { html: deep });
      pages.route('/many', { html: many });
      pages.route('/heavy', { html: heavy });

      await expect(reader()(at('/deep'))).resolves.toEqual({ text: 'Deep inside the page.' });
      await expect(reader()(at('/many'))).resolves.toMatchObject({
        text: expect.stringMatching(/^Chip makers race to build accelerators/),
      });
      await expect(reader()(at('/heavy'))).resolves.toMatchObject({
        text: expect.stringMatching(/^Chip makers race to build accelerators/),
      });
    });

    it('fails pages over each cap as too complex, naming the cap', async () => {
      pages.route('/deep', { html: nested(126) });
      pages.route('/many', { html: `<html><body>${'<p>x</p>'.repeat(9_999)}</body></html>` });
      pages.route('/heavy', {
        html: `<html><body>${'<div>'.repeat(17)}${'<p>Chip makers race to build accelerators as cloud demand outstrips supply.</p>'.repeat(1_600)}${'</div>'.repeat(17)}</body></html>`,
      });

      await expect(reader()(at('/deep'))).rejects.toMatchObject({
        reason: 'too_complex',
        message: 'the page is nested more than 128 elements deep',
      });
      await expect(reader()(at('/many'))).rejects.toMatchObject({
        reason: 'too_complex',
        message: 'the page has more than 10000 elements',
      });
      await expect(reader()(at('/heavy'))).rejects.toMatchObject({
        reason: 'too_complex',
        message: 'the page nests too much inside too much (a nesting weight over 100000)',
      });
      await expect(reader({ maxElements: 10, maxDepth: 3, maxNesting: 20 })(at('/article'))).rejects.toMatchObject({
        reason: 'too_complex',
      });
      expect(parser.workers().busy).toBe(0);
    });

    it('reads plain text of any shape without parsing it', async () => {
      pages.route('/tags.txt', { body: '<div>'.repeat(5_000), contentType: 'text/plain' });

      await expect(reader()(at('/tags.txt'))).resolves.toEqual({ text: '<div>'.repeat(5_000).slice(0, 19_999) + '…' });
    });
  });

  describe('lazyPageReader (the reader loaded on the first read)', () => {
    it('reads as createPageReader with the same options, concurrent first reads included', async () => {
      const read = lazyPageReader({ isAllowedAddress: admitsTestServer, lookup, parser });

      const [first, second] = await Promise.all([read(at('/article')), read(at('/article', 'blog.test'))]);

      expect(first).toEqual(await reader()(at('/article')));
      expect(second.title).toBe('Chip makers race to build AI accelerators');
      expect(lookup.calls.sort()).toEqual(['blog.test', 'news.test', 'news.test']);
      expect(pages.requests).toHaveLength(3);
    });

    it('keeps the default address check: a name resolving to the loopback server is refused, nothing requested', async () => {
      await expect(lazyPageReader({ lookup })(at('/article'))).rejects.toBeInstanceOf(PageRefusedError);
      expect(pages.requests).toEqual([]);
    });
  });
});
