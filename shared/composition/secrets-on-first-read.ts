import type { FunctionId } from '../catalogue/function-definitions';
import { onFirstUse } from '../platform/memo';
import { environmentSecrets, type SecretSource } from '../platform/secrets';
import { secretArnsOf } from './adapters';
import type { Settings } from './settings';

/**
 * The secrets of `secretsOf`, for a function whose requests read a secret
 * only in some cases (crmConnectionApi: a connect seals the tenant's token
 * with the CRM key; showing or removing a connection, or starting an
 * import, reads none): the Secrets Manager client and its code are loaded
 * by the first read instead of at cold start (docs/performance.md, "Cold
 * start"). Nothing this module imports at load reaches the client: keep it
 * so (test/infra/bundle-budgets.test.ts).
 */
export function secretsOnFirstReadOf(functionId: FunctionId, settings: Settings): SecretSource {
  const arns = secretArnsOf(functionId, settings);
  if (arns.length === 0) return environmentSecrets(settings);
  const source = onFirstUse(async () => (await import('../platform/secrets-manager')).secretsManagerSecrets(arns));
  return { read: async (names) => (await source()).read(names) };
}
