import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Secret, type CfnSecret, type ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { SecretDefinition } from '../../shared/catalogue/secrets';

/** Props of {@link ProviderSecret}. */
export interface ProviderSecretProps {
  /** The secret's entry in `SECRETS` (shared/catalogue/). */
  readonly definition: SecretDefinition;
  /**
   * What happens to the secret when it leaves the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * A Secrets Manager secret for one provider's credentials, created
 * WITHOUT a value: neither the code, cdk.json nor the template ever holds
 * one. An operator stores the JSON object (keys named in the description)
 * with `aws secretsmanager put-secret-value`. Keeping the value out of the
 * template also means a deploy never overwrites what the operator stored.
 *
 * A secret of the service's own (`definition.generated`: the CRM sealing
 * key) is given a value by CloudFormation when it creates the secret: a
 * random string under its key, generated in Secrets Manager, so no person
 * and no template ever sees it. A later deploy leaves it as it is.
 */
export class ProviderSecret extends Construct {
  readonly definition: SecretDefinition;
  readonly secret: ISecret;

  constructor(scope: Construct, id: string, props: ProviderSecretProps) {
    super(scope, id);
    this.definition = props.definition;
    const { generated } = props.definition;
    const secret = new Secret(this, 'Secret', {
      description: generated
        ? `Switchboard ${props.definition.id} service key: a JSON object with the key ${generated.key}, generated when the secret was created. ` +
          'Never change it: what was sealed with it could no longer be opened.'
        : `Switchboard ${props.definition.id} provider credentials: a JSON object with the keys ` +
          `${props.definition.keys.join(', ')}. Set by an operator (put-secret-value), never in code.`,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
      ...(generated
        ? {
            generateSecretString: {
              secretStringTemplate: '{}',
              generateStringKey: generated.key,
              passwordLength: generated.length,
              excludePunctuation: true,
            },
          }
        : {}),
    });
    // CDK always asks CloudFormation to generate a value; with neither
    // GenerateSecretString nor SecretString, CloudFormation creates an empty secret.
    if (!generated) (secret.node.defaultChild as CfnSecret).addPropertyDeletionOverride('GenerateSecretString');
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: generated
        ? 'A sealing key is not rotated by a Lambda: rotating it means sealing every stored secret again, a migration of its own.'
        : 'Third-party API keys are rotated at the provider, then stored here by an operator; no rotation Lambda exists for them.',
    });
    this.secret = secret;
  }
}
