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

  it.each([
    [{ LOG_FORMAT: 'xml' }, /LOG_FORMAT/],
    [{ WORKER_CONCURRENCY: '0' }, /WORKER_CONCURRENCY/],
    [{ WORKER_CONCURRENCY: 'many' }, /WORKER_CONCURRENCY/],
  ])('refuses %p, naming the setting', (env, name) => {
    expect(() => readConfig(localSettingsShape, env)).toThrow(name);
  });
});
