import { localSettingsShape } from '../../infra/local/settings';
import { readConfig } from '../../shared/platform/config';

describe('npm start settings', () => {
  it('defaults to readable logs and two batches per worker', () => {
    expect(readConfig(localSettingsShape, {})).toMatchObject({
      LOG_FORMAT: 'pretty',
      WORKER_CONCURRENCY: 2,
      HOST: '127.0.0.1',
      PORT: 3000,
    });
  });

  it('reads LOG_FORMAT and WORKER_CONCURRENCY', () => {
    expect(readConfig(localSettingsShape, { LOG_FORMAT: 'json', WORKER_CONCURRENCY: '8' })).toMatchObject({
      LOG_FORMAT: 'json',
      WORKER_CONCURRENCY: 8,
    });
  });

  it('reads API_KEYS as sites by key, or as sites with the tenant’s limits', () => {
    const key = `sbk_${'a'.repeat(20)}`;
    const other = `sbk_${'b'.repeat(20)}`;
    const API_KEYS = JSON.stringify({ [key]: ['site-1'], [other]: { sites: ['site-2'], limits: { requests_per_second: 2, burst: 2 } } });
    expect(readConfig(localSettingsShape, { API_KEYS }).API_KEYS).toEqual({
      [key]: ['site-1'],
      [other]: { sites: ['site-2'], limits: { requests_per_second: 2, burst: 2 } },
    });
    const badLimit = JSON.stringify({ [key]: { sites: ['site-1'], limits: { requests_per_second: 0 } } });
    expect(() => readConfig(localSettingsShape, { API_KEYS: badLimit })).toThrow(/API_KEYS: must be JSON like/);
  });

  it.each([
    [{ LOG_FORMAT: 'xml' }, /LOG_FORMAT/],
    [{ WORKER_CONCURRENCY: '0' }, /WORKER_CONCURRENCY/],
    [{ WORKER_CONCURRENCY: 'many' }, /WORKER_CONCURRENCY/],
  ])('refuses %p, naming the setting', (env, name) => {
    expect(() => readConfig(localSettingsShape, env)).toThrow(name);
  });
});
