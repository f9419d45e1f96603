import type { FunctionId } from '../catalogue/function-definitions';
import { onFirstUse } from '../platform/memo';
import type { SecretSource } from '../platform/secrets';
import type { Settings } from './settings';

/**
 * The secrets of `secretsOf` (secrets.ts), for a function whose requests
 * read a secret only in some cases (crmConnectionApi: a connect seals the
 * tenant's token with the CRM key; showing or removing a connection, or
 * starting an import, reads none): secrets.ts, and through it the Secrets
 * Manager client, is loaded by the first read instead of at cold start
 * (docs/performance.md, "Cold start"). Nothing this module imports at load
 * reaches the client: keep it so (test/infra/bundle-budgets.test.ts).
 */
export function secretsOnFirstReadOf(functionId: FunctionId, settings: Settings): SecretSource {
  const source = onFirstUse(async () => (await import('./secrets')).secretsOf(functionId, settings));
  return { read: async (names) => (await source()).read(names) };
}
