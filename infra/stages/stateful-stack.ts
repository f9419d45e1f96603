import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { EnvironmentConfig } from '../config';
import { ApiGatewayAccount } from '../constructs/api-gateway-account';
import { JobQueue } from '../constructs/job-queue';
import { ProviderSecret } from '../constructs/provider-secret';
import { ServiceTable } from '../constructs/service-table';
import { JOB_TYPES, QUEUES, type JobQueueId } from '../../shared/catalogue/job-types';
import { SECRETS, type SecretId } from '../../shared/catalogue/secrets';

/** Props of {@link StatefulStack}. */
export interface StatefulStackProps extends StackProps {
  /** The environment: removal policy and deletion protection of the data. */
  readonly config: EnvironmentConfig;
}

/**
 * Everything that holds data and must outlive a bad deploy of the code:
 * the table, every queue of `QUEUES` with its dead-letter queue (retained
 * like the table where the environment retains data), one secret per
 * `SECRETS` entry, and one managed policy per queue that event producers
 * may send to. Outputs what a team uses: the table name, queue URLs,
 * producer policy ARNs (exported, with their queue's URL), secret ARNs.
 */
export class StatefulStack extends Stack {
  readonly table: ITable;
  readonly queues: ReadonlyMap<JobQueueId, JobQueue>;
  readonly secrets: ReadonlyMap<SecretId, ProviderSecret>;
  /** `sqs:SendMessage` on one queue, for event producers to attach to their roles: one per job type `fromProducers`. */
  readonly producerPolicies: ReadonlyMap<JobQueueId, ManagedPolicy>;
  /**
   * API Gateway's CloudWatch role setting of the account and region, where
   * `apiGatewayAccountRole` is `create`. It lives here, not with the APIs:
   * an account-wide setting outlives any one deploy of the code, this stack
   * is deployed first (so the setting exists before the relay's stage is
   * created) and is the one kept (termination protection in prod), while
   * the service stack may be deleted and deployed again.
   */
  readonly apiGatewayAccount?: ApiGatewayAccount;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.table = new ServiceTable(this, 'Data', {
      removalPolicy: config.removalPolicy,
      deletionProtection: config.tableDeletionProtection,
    }).table;
    new CfnOutput(this, 'TableName', {
      description: 'The DynamoDB table (TABLE_NAME of npm run data:import and npm run keys)',
      value: this.table.tableName,
    });

    this.queues = new Map(
      QUEUES.map((definition) => [
        definition.id,
        new JobQueue(this, `${pascal(definition.id)}Jobs`, { definition, removalPolicy: config.removalPolicy }),
      ]),
    );
    for (const { definition, queue, deadLetterQueue } of this.queues.values()) {
      new CfnOutput(this, `${pascal(definition.id)}QueueUrl`, {
        description: `URL of the ${definition.id} job queue (${definition.urlEnvVar})`,
        value: queue.queueUrl,
        ...(producerJobOf(definition.id) ? { exportName: `${this.stackName}-${pascal(definition.id)}QueueUrl` } : {}),
      });
      new CfnOutput(this, `${pascal(definition.id)}DeadLetterQueueUrl`, {
        description: `URL of the ${definition.id} dead-letter queue (${definition.dlqUrlEnvVar})`,
        value: deadLetterQueue.queueUrl,
      });
    }

    const producerPolicies = new Map<JobQueueId, ManagedPolicy>();
    for (const job of JOB_TYPES.filter((candidate) => candidate.fromProducers)) {
      const jobQueue = this.queues.get(job.queue.id);
      if (!jobQueue) throw new Error(`Queue ${job.queue.id} missing`);
      const name = `${pascal(job.queue.id)}Producer`;
      const policy = new ManagedPolicy(this, `${name}Policy`, {
        description: `Switchboard ${config.name}: lets an event producer put ${job.type} jobs on the ${job.queue.id} queue (sqs:SendMessage on that queue only)`,
        statements: [new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [jobQueue.queue.queueArn] })],
      });
      producerPolicies.set(job.queue.id, policy);
      new CfnOutput(this, `${name}PolicyArn`, {
        description: `Attach to an event producer's role: sqs:SendMessage on the ${job.queue.id} queue (${pascal(job.queue.id)}QueueUrl)`,
        value: policy.managedPolicyArn,
        exportName: `${this.stackName}-${name}PolicyArn`,
      });
    }
    this.producerPolicies = producerPolicies;

    if (config.apiGatewayAccountRole === 'create') this.apiGatewayAccount = new ApiGatewayAccount(this, 'ApiGatewayAccount');

    this.secrets = new Map(
      SECRETS.map((definition) => [
        definition.id,
        new ProviderSecret(this, `${pascal(definition.id)}Secret`, { definition, removalPolicy: config.removalPolicy }),
      ]),
    );
    for (const { definition, secret } of this.secrets.values()) {
      const shape = JSON.stringify(Object.fromEntries(definition.keys.map((key) => [key, '...'])));
      new CfnOutput(this, `${pascal(definition.id)}SecretArn`, {
        description: definition.generated
          ? `Generated when created (${definition.generated.key}); never change it`
          : `Fill with: aws secretsmanager put-secret-value --secret-id <this ARN> --secret-string '${shape}'`,
        value: secret.secretArn,
      });
    }
  }
}

function producerJobOf(queue: JobQueueId) {
  return JOB_TYPES.find((job) => job.queue.id === queue && job.fromProducers);
}

function pascal(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}
