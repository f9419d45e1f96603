import { mkdirSync } from 'node:fs';
import { z } from 'zod';
import { readConfig } from '../../shared/platform/config';
import { describeProviders } from './providers-banner';
import { startLocalRuntime } from './runtime';

/**
 * `npm start`: the whole service on this machine. Settings (README
 * "Configuration"): HOST, PORT, DATA_DIR, DATA_FILE, API_KEY, API_KEYS and
 * the provider settings of PROVIDERS.md.
 */
const settings = readConfig({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().optional(),
  DATA_FILE: z.string().optional(),
  API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  API_KEYS: z
    .string()
    .transform((text, ctx) => {
      try {
        return z.record(z.string().min(16), z.array(z.string().min(1))).parse(JSON.parse(text));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON like {"KEY": ["site-id", …]} with keys of at least 16 characters' });
        return z.NEVER;
      }
    })
    .optional(),
});

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
});

const lines = [
  '',
  `Switchboard is running at ${runtime.url}`,
  `  API key (all ${runtime.siteIds.length} loaded site(s)): ${settings.API_KEY ? '(from API_KEY)' : runtime.apiKey}`,
  ...(settings.API_KEYS ? [`  more keys from API_KEYS: ${Object.keys(settings.API_KEYS).length}, each its own tenant`] : []),
  `  sites: ${runtime.siteIds.join(', ')}`,
  `  embedded DynamoDB: ${runtime.dynamodbEndpoint} (table "${runtime.tableName}", ${settings.DATA_DIR ? `data in ${settings.DATA_DIR}` : 'in memory'})`,
  `  embedded SQS:      ${runtime.sqsEndpoint}`,
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
