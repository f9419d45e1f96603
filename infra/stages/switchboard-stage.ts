import { Stage, Tags, type StageProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { EnvironmentConfig } from '../config';
import { SECRETS } from '../../shared/catalogue/secrets';
import { EdgeStack } from './edge-stack';
import { ServiceStack } from './service-stack';
import { StatefulStack } from './stateful-stack';

/** Props of {@link SwitchboardStage}. */
export interface SwitchboardStageProps extends Omit<StageProps, 'env'> {
  /** The environment to build; its account/region (if any) become the stage's. */
  readonly config: EnvironmentConfig;
}

/**
 * One deployment environment of Switchboard: the stateful stack (data,
 * queues, secrets) and the service stack (functions, API, operations), and
 * where the environment has a public host the edge stack (its WebACL, in
 * us-east-1). Stack names: `<stage id>-Stateful`, `<stage id>-Service`,
 * `<stage id>-Edge`.
 */
export class SwitchboardStage extends Stage {
  readonly config: EnvironmentConfig;
  readonly stateful: StatefulStack;
  readonly service: ServiceStack;
  /** The front door's us-east-1 part (its WebACL), where the environment has a public host. */
  readonly edge?: EdgeStack;

  constructor(scope: Construct, id: string, props: SwitchboardStageProps) {
    const { config, ...stageProps } = props;
    super(scope, id, { ...stageProps, env: { account: config.account, region: config.region } });
    this.config = config;
    this.stateful = new StatefulStack(this, 'Stateful', {
      config,
      description: `Switchboard ${config.name}: table, job queues and dead-letter queues, provider secrets (${SECRETS.length})`,
      terminationProtection: config.tableDeletionProtection,
    });
    if (config.publicHost !== 'none') {
      // CloudFront takes its WebACL from us-east-1 only: a small stack there, whatever the environment's region.
      this.edge = new EdgeStack(this, 'Edge', {
        env: { account: config.account, region: 'us-east-1' },
        webAclName: `${id}-front-door`,
        description: `Switchboard ${config.name}: WAF WebACL of the front door (${config.publicHost.domainName})`,
      });
    }
    this.service = new ServiceStack(this, 'Service', {
      config,
      stateful: this.stateful,
      ...(this.edge ? { webAclArn: this.edge.webAcl.webAcl.attrArn } : {}),
      displayName: id,
      description: `Switchboard ${config.name}: functions, HTTP API, relay socket, front door, alarms and dashboard`,
    });
    Tags.of(this).add('service', 'switchboard');
    Tags.of(this).add('environment', config.name);
  }
}
