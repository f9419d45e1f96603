import { readFileSync } from 'node:fs';
import { createAuthenticator } from '../../shared/access/authenticate';
import { generateApiKey, hashApiKey, keyIdOf, type ApiKeyRecord } from '../../shared/access/api-keys';
import { apiRoute } from '../../shared/api/route';
import { createLogger } from '../../shared/platform/logger';
import { jsonResponse } from '../../shared/platform/http/responses';
import type { HttpEvent } from '../../shared/platform/http/types';
import { lambdaContext } from '../../infra/local/lambda-context';
import { captureOutput } from '../support/capture-output';

/** Every log line of an API request names the caller's key by its id, and never shows the key. */
const event = JSON.parse(readFileSync(new URL('../events/http-api-v2-get-command.json', import.meta.url), 'utf8')) as HttpEvent;
const keyA = generateApiKey();
const keyB = generateApiKey();
const records: ApiKeyRecord[] = [keyA, keyB].map((key) => ({
  key_hash: hashApiKey(key),
  tenant_id: 'tenant-a',
  site_ids: [],
  created_at: '2026-11-23T00:00:00Z',
}));
const authenticate = createAuthenticator({ findByHash: async (hash) => records.find((record) => record.key_hash === hash) });

function route(format: 'json' | 'pretty') {
  const logger = createLogger('getCommandApi', { level: 'DEBUG', format });
  const handler = apiRoute({ logger, authenticate }, {}, async ({ event: request }) => {
    logger.debug('Reading the command', { path: request.rawPath });
    logger.info('Read the command');
    if (request.rawQueryString === 'fail=1') throw new Error('DynamoDB unreachable');
    return jsonResponse(200, { success: true });
  });
  const invoke = (key: string, query = '') =>
    handler({ ...event, rawQueryString: query, headers: { ...event.headers, 'x-api-key': key } }, lambdaContext('getCommandApi', 29));
  return { logger, invoke };
}

const lines = (output: { stdout: string; stderr: string }) => `${output.stdout}${output.stderr}`.split('\n').filter(Boolean);

describe('apiRoute log lines', () => {
  it('carry the key id on every JSON line of a request (errors included), never the key, and not after it', async () => {
    const { logger, invoke } = route('json');
    const output = await captureOutput(async () => {
      await invoke(keyA);
      await invoke(keyB, 'fail=1');
      logger.info('Between requests');
    });
    const items = (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const a = keyIdOf(hashApiKey(keyA));
    const b = keyIdOf(hashApiKey(keyB));
    expect(items(output.stdout).map((item) => [item.message, item.keyId])).toEqual([
      ['Reading the command', a],
      ['Read the command', a],
      ['Reading the command', b],
      ['Read the command', b],
      ['Between requests', undefined],
    ]);
    expect(items(output.stderr).map((item) => [item.message, item.keyId])).toEqual([['Unhandled error', b]]);
    // The invocation's Lambda context is on every line of a request (the local runtime's context gives a request id each).
    const requestIds = [...items(output.stdout).slice(0, 4), ...items(output.stderr)].map((item) => item.function_request_id);
    expect(requestIds.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(requestIds).size).toBe(2);
    expect(`${output.stdout}${output.stderr}`).not.toContain(keyA);
    expect(`${output.stdout}${output.stderr}`).not.toContain(keyB);
  });

  it('carry the key id on every pretty line too', async () => {
    const { invoke } = route('pretty');
    const output = await captureOutput(() => invoke(keyA, 'fail=1'));
    expect(lines(output)).toHaveLength(3);
    for (const line of lines(output)) expect(line).toContain(`keyId=${keyIdOf(hashApiKey(keyA))}`);
    expect(`${output.stdout}${output.stderr}`).not.toContain(keyA);
  });
});
