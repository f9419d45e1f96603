import { functionById, type FunctionId } from '../catalogue/function-definitions';
import { SECRETS } from '../catalogue/secrets';
import { environmentSecrets, type SecretSource } from '../platform/secrets';
import { secretsManagerSecrets } from '../platform/secrets-manager';
import type { Settings } from './settings';

/**
 * Provider credentials: Secrets Manager when the function has secret ARNs
 * (those its catalogue entry declares, as its settings give them), else the
 * settings themselves (locally). In a file of its own: a function that reads
 * a secret only on some requests loads this module on its first read
 * (secrets-on-first-read.ts), and no static import of it may reach the
 * Secrets Manager client (test/infra/bundle-budgets.test.ts).
 */
export function secretsOf(functionId: FunctionId, settings: Settings): SecretSource {
  const declared = functionById(functionId).access.secrets;
  const arns = SECRETS.filter((secret) => declared.includes(secret.id))
    .map((secret) => settings[secret.arnEnvVar])
    .filter((arn): arn is string => Boolean(arn));
  return arns.length > 0 ? secretsManagerSecrets(arns) : environmentSecrets(settings);
}
