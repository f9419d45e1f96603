import { mkdirSync } from 'node:fs';
import { readConfig } from '../../shared/platform/config';
import { describeProviders } from './providers-banner';
import { localSettingsShape } from './settings';
import { startLocalRuntime } from './runtime';

/**
 * `npm start`: the whole service on this machine. Settings (README
 * "Configuration"): HOST, PORT, DATA_DIR, DATA_FILE, API_KEY, API_KEYS and
 * the provider settings of PROVIDERS.md.
 */
const settings = (() => {
  try {
    return readConfig(localSettingsShape);
  } catch (error) {
    process.stderr.write(`Switchboard could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
})();

if (settings.DATA_DIR) mkdirSync(settings.DATA_DIR, { recursive: true });
const publicBaseUrl = process.env.PUBLIC_BASE_URL ?? `http://${settings.HOST}:${settings.PORT}`;

const runtime = await startLocalRuntime({
  host: settings.HOST,
  port: settings.PORT,
  ...(settings.DATA_DIR ? { dataDir: settings.DATA_DIR } : {}),
  ...(settings.DATA_FILE ? { dataFiles: [settings.DATA_FILE] } : {}),
  ...(settings.API_KEY ? { apiKey: settings.API_KEY } : {}),
  ...(settings.API_KEYS ? { apiKeys: settings.API_KEYS } : {}),
  settings: { PUBLIC_BASE_URL: publicBaseUrl },
}).catch((error: unknown) => {
  process.stderr.write(`Switchboard could not start: ${startupProblem(error)}\n`);
  process.exit(1);
});

const lines = [
  '',
  `Switchboard is running at ${runtime.url}`,
  `  API key (all ${runtime.siteIds.length} loaded site(s)): ${settings.API_KEY ? '(from API_KEY)' : runtime.apiKey}`,
  ...(settings.API_KEYS ? [`  more keys from API_KEYS: ${Object.keys(settings.API_KEYS).length}, each its own tenant`] : []),
  `  sites: ${runtime.siteIds.join(', ')}`,
  `  embedded DynamoDB: ${runtime.dynamodbEndpoint} (table "${runtime.tableName}", ${settings.DATA_DIR ? `data in ${settings.DATA_DIR}` : 'in memory'})`,
  `  embedded SQS:      ${runtime.sqsEndpoint}`,
  ...Object.entries(runtime.queues).map(([id, queue]) => `    ${id} queue: ${queue.url} (dead letters: ${queue.dlqUrl})`),
  `  providers:         ${describeProviders(process.env)}`,
  '',
  `  try: curl -s ${runtime.url}/health`,
  `  CLIs reach this runtime with AWS_ENDPOINT_URL_DYNAMODB=${runtime.dynamodbEndpoint}`,
  '  Ctrl-C stops it (jobs in hand finish; the rest stay queued).',
  '',
];
process.stdout.write(lines.join('\n'));

let stopping = false;
const shutdown = (signal: string) => {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`\n${signal}: stopping…\n`);
  runtime.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`stop failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));

/** A start-up failure in one line a user can act on. */
function startupProblem(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') return `${settings.HOST}:${settings.PORT} is already in use; set PORT to another port (or 0 for any free one).`;
  if (code === 'EADDRNOTAVAIL') return `HOST ${settings.HOST} is not an address of this machine.`;
  return error instanceof Error ? error.message : String(error);
}
