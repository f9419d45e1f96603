import { API_REFERENCE_PATHS } from '../../shared/api/reference';
import type { LocalRuntime } from './runtime';
import { LOCAL_CRM_PAGE } from './crm-control';
import { describeCrm, describeProviders, describeTelephony } from './providers-banner';

/** Where the banner's key came from, so it is printed only when `npm start` made it. */
export type KeySource = { kind: 'setting' } | { kind: 'generated' } | { kind: 'stored'; file: string; created: boolean };

/** What `npm start` prints once it is up: where it listens, the key and its tenant, the embedded endpoints, the providers. */
export function formatBanner(
  runtime: LocalRuntime,
  info: { keySource: KeySource; dataDir?: string; extraKeys: number; graceSeconds: number; env: Record<string, string | undefined> },
): string {
  const key =
    info.keySource.kind === 'setting'
      ? '(from API_KEY)'
      : info.keySource.kind === 'stored'
        ? `${runtime.apiKey} (${info.keySource.created ? 'made and kept' : 'kept'} in ${info.keySource.file})`
        : runtime.apiKey;
  return [
    '',
    `Switchboard is running at ${runtime.url}`,
    `  API key (tenant "${runtime.tenantId}", all ${runtime.siteIds.length} loaded site(s)): ${key}`,
    ...(info.extraKeys > 0 ? [`  more keys from API_KEYS: ${info.extraKeys}, each its own tenant`] : []),
    `  sites: ${runtime.siteIds.join(', ')}`,
    `  embedded DynamoDB: ${runtime.dynamodbEndpoint} (table "${runtime.tableName}", ${info.dataDir ? `data in ${info.dataDir}` : 'in memory'})`,
    `  embedded SQS:      ${runtime.sqsEndpoint}`,
    ...Object.entries(runtime.queues).map(([id, queue]) => `    ${id} queue: ${queue.url} (dead letters: ${queue.dlqUrl})`),
    `  providers:         ${describeProviders(info.env)}`,
    `  telephony:         ${describeTelephony(info.env, runtime.localTelephony)}`,
    `  CRM:               ${describeCrm(info.env, runtime.localCrm)}`,
    ...(runtime.localCrm
      ? [
          `    connect with:    PUT /api/integrations/hubspot {"access_token":"${runtime.localCrm.token}"}`,
          `    see it at:       ${runtime.url}${LOCAL_CRM_PAGE}, or npm run crm:local -- list`,
        ]
      : []),
    '',
    `  try: curl -s ${runtime.url}/health`,
    `  API reference: ${runtime.url}${API_REFERENCE_PATHS.page} (OpenAPI document: ${runtime.url}${API_REFERENCE_PATHS.document})`,
    `  CLIs reach this runtime with AWS_ENDPOINT_URL_DYNAMODB=${runtime.dynamodbEndpoint} AWS_ENDPOINT_URL_SQS=${runtime.sqsEndpoint}`,
    `  Ctrl-C stops it (jobs in hand get ${info.graceSeconds} s to finish; a second Ctrl-C exits at once).`,
    '',
    '',
  ].join('\n');
}
