import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake holds per secret id: a JSON value, or nothing yet (as CDK creates them). */
export type FakeSecret = { value: Record<string, string> } | { empty: true };

export interface SecretsManagerFake {
  /** Endpoint for `AWS_ENDPOINT_URL_SECRETS_MANAGER`. */
  readonly endpoint: string;
  readonly requests: string[];
  set(secretId: string, secret: FakeSecret): void;
  close(): Promise<void>;
}

/**
 * Loopback stand-in for Secrets Manager's GetSecretValue, speaking its AWS
 * JSON 1.1 wire protocol, so the real SDK client (through Powertools) runs.
 */
export async function startSecretsManagerFake(): Promise<SecretsManagerFake> {
  const secrets = new Map<string, FakeSecret>();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { SecretId?: string };
      requests.push(`${target} ${body.SecretId ?? ''}`);
      const reply = (status: number, payload: unknown, errorType?: string) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', ...(errorType ? { 'x-amzn-errortype': errorType } : {}) });
        res.end(JSON.stringify(payload));
      };
      if (target !== 'secretsmanager.GetSecretValue')
        return reply(400, { __type: 'UnknownOperationException', message: target }, 'UnknownOperationException');
      const secret = secrets.get(body.SecretId ?? '');
      if (!secret) return reply(400, { __type: 'AccessDeniedException', Message: 'not allowed' }, 'AccessDeniedException');
      if ('empty' in secret) {
        return reply(
          400,
          {
            __type: 'ResourceNotFoundException',
            Message: "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT",
          },
          'ResourceNotFoundException',
        );
      }
      return reply(200, {
        ARN: body.SecretId,
        Name: body.SecretId,
        SecretString: JSON.stringify(secret.value),
        VersionId: 'v1',
        VersionStages: ['AWSCURRENT'],
        CreatedDate: 1_795_000_000,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    set: (secretId, secret) => void secrets.set(secretId, secret),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
