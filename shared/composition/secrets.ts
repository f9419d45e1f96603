import type { FunctionId } from '../catalogue/function-definitions';
import { environmentSecrets, type SecretSource } from '../platform/secrets';
import { secretsManagerSecrets } from '../platform/secrets-manager';
import { secretArnsOf } from './adapters';
import type { Settings } from './settings';

/**
 * Provider credentials: Secrets Manager when the function has secret ARNs,
 * else the settings themselves (locally). In a file of its own, as
 * secrets-on-first-read.ts is: a function that reads a secret only on some
 * requests must not reach the Secrets Manager client through a static
 * import (test/infra/bundle-budgets.test.ts).
 */
export function secretsOf(functionId: FunctionId, settings: Settings): SecretSource {
  const arns = secretArnsOf(functionId, settings);
  return arns.length > 0 ? secretsManagerSecrets(arns) : environmentSecrets(settings);
}
