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
 */
export class ProviderSecret extends Construct {
  readonly definition: SecretDefinition;
  readonly secret: ISecret;

  constructor(scope: Construct, id: string, props: ProviderSecretProps) {
    super(scope, id);
    this.definition = props.definition;
    const secret = new Secret(this, 'Secret', {
      description:
        `Switchboard ${props.definition.id} provider credentials: a JSON object with the keys ` +
        `${props.definition.keys.join(', ')}. Set by an operator (put-secret-value), never in code.`,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    // CDK always asks CloudFormation to generate a value; with neither
    // GenerateSecretString nor SecretString, CloudFormation creates an empty secret.
    (secret.node.defaultChild as CfnSecret).addPropertyDeletionOverride('GenerateSecretString');
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Third-party API keys are rotated at the provider, then stored here by an operator; no rotation Lambda exists for them.',
    });
    this.secret = secret;
  }
}
