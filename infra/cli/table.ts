import { assertValidTenantId } from '../../shared/access/tenants';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { LOCAL_TABLE_NAME } from '../local/embedded-aws';

/**
 * The table a CLI writes to: TABLE_NAME, or the local runtime's table when
 * AWS_ENDPOINT_URL_DYNAMODB points at the embedded DynamoDB.
 */
export function cliTableName(env: Record<string, string | undefined> = process.env): string {
  if (env.TABLE_NAME) return env.TABLE_NAME;
  if (env.AWS_ENDPOINT_URL_DYNAMODB) return LOCAL_TABLE_NAME;
  throw new Error('Set TABLE_NAME (the deployed table), or AWS_ENDPOINT_URL_DYNAMODB to the embedded DynamoDB that `npm start` prints.');
}

/** Local endpoints accept any credentials; give the SDK some so it does not go looking. */
export function ensureLocalCredentials(env: NodeJS.ProcessEnv = process.env): void {
  if (!env.AWS_ENDPOINT_URL_DYNAMODB) return;
  env.AWS_REGION ??= 'us-east-1';
  env.AWS_ACCESS_KEY_ID ??= 'local';
  env.AWS_SECRET_ACCESS_KEY ??= 'local';
}

/**
 * Runs a CLI's work against its table (cliTableName, local credentials when local) with a document client closed after it;
 * a missing table setting exits 2 with what to set.
 */
export async function withCliTable<T>(work: (db: DynamoDBDocumentClient, tableName: string) => Promise<T>): Promise<T> {
  ensureLocalCredentials();
  let tableName: string;
  try {
    tableName = cliTableName();
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const db = createDocumentClient();
  try {
    return await work(db, tableName);
  } finally {
    db.destroy();
  }
}

/** Prints the message and exits with status 2 (usage or input problem). */
export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/** The `--tenant` option, checked: a malformed tenant id exits with the rule it breaks. */
export function tenantOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    assertValidTenantId(value);
  } catch (error) {
    fail(`--tenant: ${error instanceof Error ? error.message : String(error)}`);
  }
  return value;
}
