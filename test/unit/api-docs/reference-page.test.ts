import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { API_REFERENCE_PATHS, referenceAnswers, serveReference } from '../../../shared/api/reference';
import { tempDir } from '../../support/temp-dir';

/** The reference routes' use case: the page, its Content-Security-Policy, caching, and file reads. */
const files = { document: JSON.stringify({ openapi: '3.1.0', info: { title: 'Switchboard <API>' } }), script: 'export function init() {}' };

describe('the reference page', () => {
  const answer = referenceAnswers(files);

  it('allows exactly its own inline module besides this origin, and escapes the title', () => {
    const page = answer(API_REFERENCE_PATHS.page, {});
    const inline = /<script type="module">([\s\S]*?)<\/script>/.exec(page.body)![1]!;
    const hash = createHash('sha256').update(inline).digest('base64');
    expect(page.headers['content-security-policy']).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    expect(page.body).toContain('<title>Switchboard &#60;API&#62;</title>');
    expect(inline).toContain('disableTelemetry: true');
  });

  it('serves the document and the script as they are, with ETags, and 304 on a match', () => {
    const document = answer(API_REFERENCE_PATHS.document, {});
    expect([document.statusCode, document.body]).toEqual([200, files.document]);
    expect(answer(`${API_REFERENCE_PATHS.document}/`, {}).body).toBe(files.document);
    const script = answer(API_REFERENCE_PATHS.script, {});
    expect([script.statusCode, script.body, script.headers['content-type']]).toEqual([200, files.script, 'text/javascript; charset=utf-8']);
    expect(answer(API_REFERENCE_PATHS.script, { 'if-none-match': `"other", ${script.headers.etag}` })).toMatchObject({
      statusCode: 304,
      body: '',
    });
    expect(answer(API_REFERENCE_PATHS.script, { 'if-none-match': '"other"' }).statusCode).toBe(200);
  });

  it('answers any other path 404 NOT_FOUND in the envelope', () => {
    const missing = answer('/docs/other.js', {});
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });
});

describe('serveReference', () => {
  it('reads the files on first use, and again after a failed read', async () => {
    const dir = tempDir('reference');
    const paths = { document: join(dir, 'openapi.json'), script: join(dir, 'redoc.js') };
    const serve = serveReference(paths);
    await expect(serve(API_REFERENCE_PATHS.document, {})).rejects.toThrow(/ENOENT/);
    await writeFile(paths.document, files.document);
    await writeFile(paths.script, files.script);
    expect((await serve(API_REFERENCE_PATHS.document, {})).body).toBe(files.document);
    await writeFile(paths.document, '{"changed": true}');
    expect((await serve(API_REFERENCE_PATHS.document, {})).body).toBe(files.document);
  });
});
