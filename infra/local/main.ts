import { mkdirSync } from 'node:fs';
import { readConfig } from '../../shared/platform/config';
import { formatBanner, type KeySource } from './banner';
import { DEFAULT_STOP_GRACE_MS } from './drain';
import { localSettingsShape } from './settings';
import { shutdownOnRequest, watchParent } from './shutdown';
import { storedApiKey } from './stored-api-key';
import { startLocalRuntime } from './runtime';

/**
 * `npm start`: the whole service on this machine. Settings
 * (docs/configuration.md "Settings"): HOST, PORT, DATA_DIR, DATA_FILE, API_KEY, API_KEYS,
 * LOG_FORMAT, WORKER_CONCURRENCY and the provider settings of docs/configuration.md.
 */

// README recommends Node 22; the SDK's notice about Node 20 would only repeat it on every start.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const settings = (() => {
  try {
    return readConfig(localSettingsShape);
  } catch (error) {
    process.stderr.write(`Switchboard could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
})();

if (settings.DATA_DIR) mkdirSync(settings.DATA_DIR, { recursive: true });
const stored = !settings.API_KEY && settings.DATA_DIR ? await storedApiKey(settings.DATA_DIR) : undefined;
const keySource: KeySource = settings.API_KEY
  ? { kind: 'setting' }
  : stored
    ? { kind: 'stored', file: stored.file, created: stored.created }
    : { kind: 'generated' };
const apiKey = settings.API_KEY ?? stored?.key;

const runtime = await startLocalRuntime({
  // Every function composed before the banner, so a malformed setting stops the start.
  compose: 'start',
  // The storage servers answer on a thread of their own, beside the functions (as the real services run elsewhere).
  embeddedThread: true,
  host: settings.HOST,
  port: settings.PORT,
  ...(settings.DATA_DIR ? { dataDir: settings.DATA_DIR } : {}),
  ...(settings.DATA_FILE ? { dataFiles: [settings.DATA_FILE] } : {}),
  ...(apiKey ? { apiKey } : {}),
  ...(settings.API_KEYS ? { apiKeys: settings.API_KEYS } : {}),
  workerConcurrency: settings.WORKER_CONCURRENCY,
  // PUBLIC_BASE_URL defaults to the runtime's own address (http://HOST:PORT) there.
  settings: { LOG_FORMAT: settings.LOG_FORMAT },
}).catch((error: unknown) => {
  process.stderr.write(`Switchboard could not start: ${startupProblem(error)}\n`);
  process.exit(1);
});

process.stdout.write(
  formatBanner(runtime, {
    keySource,
    ...(settings.DATA_DIR ? { dataDir: settings.DATA_DIR } : {}),
    extraKeys: Object.keys(settings.API_KEYS ?? {}).length,
    graceSeconds: DEFAULT_STOP_GRACE_MS / 1000,
    env: process.env,
  }),
);

const shutdown = shutdownOnRequest({
  stop: (onWait) => runtime.stop({ graceMs: DEFAULT_STOP_GRACE_MS, onWait }),
  write: (text) => process.stdout.write(text),
  exit: (code) => process.exit(code),
});
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
watchParent(() => shutdown('npm exited', { insist: false }));

/** A start-up failure in one line a user can act on. */
function startupProblem(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE')
    return `${settings.HOST}:${settings.PORT} is already in use; set PORT to another port (or 0 for any free one).`;
  if (code === 'EADDRNOTAVAIL') return `HOST ${settings.HOST} is not an address of this machine.`;
  return error instanceof Error ? error.message : String(error);
}
