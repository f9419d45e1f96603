import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildOpenApiDocument, serializeDocument } from '../../../infra/api-docs/document';
import { CLIENT_TYPES, OPENAPI_JSON, generatedFiles, staleFiles, type GeneratedFile } from '../../../infra/api-docs/generate';
import { tempDir } from '../../support/temp-dir';

/**
 * The committed reference is what the sources give (`npm run docs` writes
 * it), and it is a valid OpenAPI 3.1 document by Redocly's strict
 * recommended rules (redocly.yaml), as `npm run docs:lint` checks.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);
const CLI = resolve(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const QUIET = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

let files: GeneratedFile[];
beforeAll(async () => {
  files = await generatedFiles();
});

describe('the generated reference', () => {
  it('is deterministic', () => {
    expect(serializeDocument(buildOpenApiDocument())).toBe(serializeDocument(buildOpenApiDocument()));
  });

  it('is committed up to date: docs/openapi.json and docs/switchboard-api.d.ts (run `npm run docs`)', async () => {
    expect(files.map((file) => file.path)).toEqual([OPENAPI_JSON, CLIENT_TYPES]);
    expect(await staleFiles(files)).toEqual([]);
  });

  it('finds a stale or missing file', async () => {
    expect(
      await staleFiles([
        { path: OPENAPI_JSON, content: '{}\n' },
        { path: 'docs/missing.json', content: '' },
      ]),
    ).toEqual([OPENAPI_JSON, 'docs/missing.json']);
  });

  it('types every operation for the typed client', async () => {
    const [, types] = files;
    for (const id of ['runLeadFollowUp', 'runStakeholderCoordination', 'runDeepResearch', 'getCommand', 'deleteCommand', 'getHealth']) {
      expect(types!.content).toContain(`    ${id}: {`);
    }
  });

  it('passes `redocly lint` (recommended-strict: a warning fails)', async () => {
    const result = await run(process.execPath, [CLI, 'lint', OPENAPI_JSON], { cwd: ROOT, env: QUIET }).catch(
      (error: { stdout?: string; stderr?: string; code?: number }) => ({ ...error, failed: true }),
    );
    expect(result).not.toHaveProperty('failed');
    expect(`${result.stdout}${result.stderr}`).toMatch(/valid/i);
  });

  it('lint fails on a document with a dangling reference', async () => {
    const dir = tempDir('openapi');
    const broken = {
      ...buildOpenApiDocument(),
      paths: {
        '/x': { get: { responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } } } } } },
      },
    };
    await writeFile(resolve(dir, 'openapi.json'), JSON.stringify(broken));
    const failed = await run(process.execPath, [CLI, 'lint', resolve(dir, 'openapi.json'), '--config', resolve(ROOT, 'redocly.yaml')], {
      cwd: ROOT,
      env: QUIET,
    }).then(
      () => false,
      () => true,
    );
    expect(failed).toBe(true);
  });
});
