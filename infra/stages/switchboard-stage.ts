import { Stage, Tags, type StageProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { EnvironmentConfig } from '../config';
import { SECRETS } from '../../shared/catalogue/secrets';
import { ServiceStack } from './service-stack';
import { StatefulStack } from './stateful-stack';

/** Props of {@link SwitchboardStage}. */
export interface SwitchboardStageProps extends Omit<StageProps, 'env'> {
  /** The environment to build; its account/region (if any) become the stage's. */
  readonly config: EnvironmentConfig;
}

/**
 * One deployment environment of Switchboard: the stateful stack (data,
 * queues, secrets) and the service stack (functions, API, operations).
 * Stack names: `<stage id>-Stateful`, `<stage id>-Service`.
 */
export class SwitchboardStage extends Stage {
  readonly config: EnvironmentConfig;
  readonly stateful: StatefulStack;
  readonly service: ServiceStack;

  constructor(scope: Construct, id: string, props: SwitchboardStageProps) {
    const { config, ...stageProps } = props;
    super(scope, id, { ...stageProps, env: { account: config.account, region: config.region } });
    this.config = config;
    this.stateful = new StatefulStack(this, 'Stateful', {
      config,
      description: `Switchboard ${config.name}: table, job queues and dead-letter queues, provider secrets (${SECRETS.length})`,
      terminationProtection: config.tableDeletionProtection,
    });
    this.service = new ServiceStack(this, 'Service', {
      config,
      stateful: this.stateful,
      displayName: id,
      description: `Switchboard ${config.name}: functions, HTTP API, alarms and dashboard`,
    });
    Tags.of(this).add('service', 'switchboard');
    Tags.of(this).add('environment', config.name);
  }
}
