import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, SourceData } from '@smithy/types';

/**
 * The AWS services the preflight calls without an SDK client of their own:
 * the signing name, the host prefix, and the `AWS_ENDPOINT_URL_<ID>`
 * suffix of the SDKs' service-specific endpoint setting.
 */
export const SERVICES = {
  ssm: { signingName: 'ssm', host: 'ssm', envId: 'SSM' },
  cloudformation: { signingName: 'cloudformation', host: 'cloudformation', envId: 'CLOUDFORMATION' },
  apigateway: { signingName: 'apigateway', host: 'apigateway', envId: 'API_GATEWAY' },
  lambda: { signingName: 'lambda', host: 'lambda', envId: 'LAMBDA' },
  sns: { signingName: 'sns', host: 'sns', envId: 'SNS' },
  sts: { signingName: 'sts', host: 'sts', envId: 'STS' },
} as const;

export type ServiceName = keyof typeof SERVICES;

/** An answer of an AWS API: its status and body text. */
export interface AwsAnswer {
  readonly status: number;
  readonly body: string;
}

/** Sends one signed request to an AWS service and returns its answer (any status). */
export type AwsRequester = (
  service: ServiceName,
  request: { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string },
) => Promise<AwsAnswer>;

/**
 * The endpoint of `service` as the AWS SDKs choose it:
 * `AWS_ENDPOINT_URL_<SERVICE>`, else `AWS_ENDPOINT_URL`, else the regional
 * endpoint.
 */
export function endpointOf(service: ServiceName, region: string, env: NodeJS.ProcessEnv = process.env): URL {
  const configured = env[`AWS_ENDPOINT_URL_${SERVICES[service].envId}`] || env.AWS_ENDPOINT_URL;
  return new URL(configured || `https://${SERVICES[service].host}.${region}.amazonaws.com`);
}

/** The caller's credentials through the SDK's default chain (environment, profile, SSO, container, instance). */
export function defaultCredentials(region: string): () => Promise<AwsCredentialIdentity> {
  const client = new SecretsManagerClient({ region });
  return async () => client.config.credentials();
}

/**
 * A SigV4-signed requester for the services without an SDK client in this
 * project (only the Secrets Manager client is a dependency); the wire formats
 * are the services' own.
 */
export function signedRequester(region: string, credentials = defaultCredentials(region)): AwsRequester {
  return async (service, request) => {
    const endpoint = endpointOf(service, region);
    const basePath = endpoint.pathname.replace(/\/$/, '');
    const [path, query] = `${basePath}${request.path}`.split('?', 2) as [string, string | undefined];
    const signer = new SignatureV4({ service: SERVICES[service].signingName, region, credentials, sha256: NodeSha256 });
    const signed = await signer.sign({
      method: request.method,
      protocol: endpoint.protocol,
      hostname: endpoint.hostname,
      ...(endpoint.port ? { port: Number(endpoint.port) } : {}),
      path,
      query: Object.fromEntries(new URLSearchParams(query ?? '')),
      headers: { host: endpoint.host, ...request.headers },
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    const url = `${endpoint.protocol}//${endpoint.host}${path}${query ? `?${query}` : ''}`;
    const response = await fetch(url, {
      method: request.method,
      headers: Object.fromEntries(Object.entries(signed.headers).filter(([name]) => name.toLowerCase() !== 'host')),
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: AbortSignal.timeout(15_000),
    }).catch((error: unknown) => {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const reason = cause instanceof Error ? ('code' in cause && String(cause.code)) || cause.message : String(cause);
      throw new Error(`${service} at ${endpoint.origin} did not answer (${reason})`, { cause: error });
    });
    return { status: response.status, body: await response.text() };
  };
}

/** SHA-256 and HMAC-SHA-256 from node:crypto, in the shape the signer takes. */
class NodeSha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = NodeSha256.start(secret);
  }
  private static start(secret?: SourceData): Hash | Hmac {
    return secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
  reset(): void {
    this.hash = NodeSha256.start(this.secret);
  }
}

function bytes(data: SourceData): string | Uint8Array {
  if (typeof data === 'string') return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data);
}
