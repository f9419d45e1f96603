import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import type { EnvironmentConfig } from '../config';
import { JobQueue } from '../constructs/job-queue';
import { ProviderSecret } from '../constructs/provider-secret';
import { ServiceTable } from '../constructs/service-table';
import { QUEUES, type JobQueueId } from '../../shared/catalogue/job-types';
import { SECRETS, type SecretId } from '../../shared/catalogue/secrets';

/** Props of {@link StatefulStack}. */
export interface StatefulStackProps extends StackProps {
  /** The environment: removal policy and deletion protection of the data. */
  readonly config: EnvironmentConfig;
}

/**
 * Everything that holds data and must outlive a bad deploy of the code:
 * the table, every queue of `QUEUES` with its dead-letter queue, and one
 * secret per `SECRETS` entry.
 */
export class StatefulStack extends Stack {
  readonly table: ITable;
  readonly queues: ReadonlyMap<JobQueueId, JobQueue>;
  readonly secrets: ReadonlyMap<SecretId, ProviderSecret>;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.table = new ServiceTable(this, 'Data', {
      removalPolicy: config.removalPolicy,
      deletionProtection: config.tableDeletionProtection,
    }).table;
    this.queues = new Map(
      QUEUES.map((definition) => [definition.id, new JobQueue(this, `${pascal(definition.id)}Jobs`, { definition })]),
    );
    this.secrets = new Map(
      SECRETS.map((definition) => [
        definition.id,
        new ProviderSecret(this, `${pascal(definition.id)}Secret`, { definition, removalPolicy: config.removalPolicy }),
      ]),
    );
    for (const { definition, secret } of this.secrets.values()) {
      const shape = JSON.stringify(Object.fromEntries(definition.keys.map((key) => [key, '...'])));
      new CfnOutput(this, `${pascal(definition.id)}SecretArn`, {
        description: `Fill with: aws secretsmanager put-secret-value --secret-id <this ARN> --secret-string '${shape}'`,
        value: secret.secretArn,
      });
    }
  }
}

function pascal(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}
