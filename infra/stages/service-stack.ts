import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { EnvironmentConfig } from '../config';
import { FrontDoor } from '../constructs/front-door';
import { Operations } from '../constructs/operations';
import { RELAY_STAGE_NAME, RelaySocketApi } from '../constructs/relay-socket-api';
import { Schedules } from '../constructs/schedules';
import { ServiceApi } from '../constructs/service-api';
import { SwitchboardFunction, type FunctionResources } from '../constructs/switchboard-function';
import { asDeployed } from '../constructs/bundle-options';
import { FUNCTIONS, type FunctionDefinition, type FunctionId } from '../../shared/catalogue/functions';
import { commandTypesRun, QUEUES } from '../../shared/catalogue/job-types';
import type { StatefulStack } from './stateful-stack';

/** Props of {@link ServiceStack}. */
export interface ServiceStackProps extends StackProps {
  /** The environment: log retention, reserved concurrency, throttling, alarms and who hears them, LOG_LEVEL, PUBLIC_BASE_URL. */
  readonly config: EnvironmentConfig;
  /** Where the table, queues and secrets live. */
  readonly stateful: Pick<StatefulStack, 'table' | 'queues' | 'secrets' | 'apiGatewayAccount'>;
  /**
   * ARN of the front door's WAF WebACL (the edge stack's, in us-east-1); required where the environment has a public host.
   * @default - no front door
   */
  readonly webAclArn?: string;
  /** Prefix of operator-facing names (dashboard), e.g. `Switchboard-prod`. */
  readonly displayName: string;
}

/**
 * The code and its front door: one house function per `FUNCTIONS` entry,
 * bound to exactly what its `access` declares; each worker consuming the
 * queue that names it; the HTTP API with every `ROUTES` entry; alarms and
 * the dashboard; where the environment has a public host, the CloudFront
 * distribution in front of both APIs. Stateless: can be destroyed and
 * redeployed at will.
 */
export class ServiceStack extends Stack {
  readonly functions: ReadonlyMap<FunctionId, SwitchboardFunction>;
  readonly api: ServiceApi;
  /** The ConversationRelay socket (API Gateway WebSocket API) of the voice assistant. */
  readonly relay: RelaySocketApi;
  /** The public host (a CloudFront distribution), where the environment has one. */
  readonly frontDoor?: FrontDoor;
  readonly operations: Operations;
  /** The EventBridge rules of the scheduled functions and their dead-letter queue. */
  readonly schedules: Schedules;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { config, stateful } = props;
    const resources: FunctionResources = stateful;

    const functions = new Map<FunctionId, SwitchboardFunction>();
    for (const cataloged of FUNCTIONS) {
      const definition = asDeployed(cataloged, { apiTracing: config.apiTracing ?? false });
      const reservedConcurrency = config.reservedConcurrency[definition.id];
      const fn = new SwitchboardFunction(this, definition.id, {
        definition,
        logRetention: config.logRetention,
        logRemovalPolicy: config.removalPolicy,
        sourceMaps: config.sourceMaps ?? false,
        ...(reservedConcurrency === undefined ? {} : { reservedConcurrency }),
        // Offline providers stand in for missing keys only where no provider is meant to be configured.
        environment: {
          LOG_LEVEL: config.logLevel,
          ALLOW_OFFLINE_PROVIDERS: String(!config.providersConfigured),
          ...providerSettingsOf(definition, config),
          ...definition.deployedSettings,
        },
      });
      functions.set(definition.id, fn.bindDeclaredAccess(resources));
    }
    this.functions = functions;

    for (const definition of FUNCTIONS) {
      const consumesAQueue = QUEUES.some((queue) => queue.workerFunction === definition.id);
      if (consumesAQueue !== (definition.kind === 'worker')) {
        throw new Error(
          `shared/catalogue: ${definition.id} is kind ${definition.kind} but is ${consumesAQueue ? '' : 'not '}a queue's workerFunction`,
        );
      }
    }
    for (const queue of QUEUES) {
      const worker = functions.get(queue.workerFunction);
      const jobQueue = stateful.queues.get(queue.id);
      if (!worker || !jobQueue) throw new Error(`Queue ${queue.id}: worker or queue missing`);
      worker.consumes(queue, jobQueue.queue);
    }

    // Rules keep their ids at the stack's root (`<id>Schedule`), as before the schedules had a dead-letter queue.
    this.schedules = new Schedules(this, 'Schedules', {
      functions: [...functions.values()].filter((fn) => fn.definition.kind === 'scheduled'),
      removalPolicy: config.removalPolicy,
    });

    this.api = new ServiceApi(this, 'Api', {
      apiName: props.displayName,
      functions: new Map([...functions].map(([fid, fn]) => [fid, fn.function])),
      throttle: config.apiThrottle.default,
      routeThrottles: config.apiThrottle.routes,
      logRetention: config.logRetention,
      logRemovalPolicy: config.removalPolicy,
    });
    const relayFunction = functions.get('conversationRelayWebhook');
    if (!relayFunction) throw new Error('shared/catalogue: the conversationRelayWebhook function is missing');
    this.relay = new RelaySocketApi(this, 'Relay', {
      apiName: `${props.displayName}-relay`,
      handler: relayFunction.function,
      handlerRole: relayFunction.role,
      throttle: config.relayThrottle,
      logRetention: config.logRetention,
      logRemovalPolicy: config.removalPolicy,
    });
    // CreateStage of a logged WebSocket stage fails until the account has API Gateway's CloudWatch role.
    if (stateful.apiGatewayAccount) this.relay.stage.node.addDependency(stateful.apiGatewayAccount.account);

    const { publicHost } = config;
    if (publicHost !== 'none') {
      if (props.webAclArn === undefined) throw new Error('A public host needs the WebACL of the edge stack');
      this.frontDoor = new FrontDoor(this, 'FrontDoor', {
        domainName: publicHost.domainName,
        certificateArn: publicHost.certificateArn,
        httpApi: this.api.httpApi,
        webSocketApi: this.relay.webSocketApi,
        webAclArn: props.webAclArn,
        comment: `${props.displayName}: ${publicHost.domainName}`,
      });
    }
    const publicBaseUrl = config.publicBaseUrl ?? this.frontDoor?.url ?? this.api.url;
    for (const fn of functions.values()) fn.function.addEnvironment('PUBLIC_BASE_URL', publicBaseUrl);

    this.operations = new Operations(this, 'Operations', {
      dashboardName: props.displayName,
      thresholds: config.alarms,
      httpApi: this.api.httpApi,
      relaySocket: { api: this.relay.webSocketApi, stageName: RELAY_STAGE_NAME },
      table: stateful.table,
      reservedConcurrency: config.reservedConcurrency,
      scheduleDeadLetterQueue: this.schedules.deadLetterQueue,
      functions: [...functions.values()],
      queues: QUEUES.map((definition) => {
        const jobQueue = stateful.queues.get(definition.id);
        if (!jobQueue) throw new Error(`Queue ${definition.id} missing`);
        return jobQueue;
      }),
      subscriptions: config.alarmSubscriptions,
      commandFailures: { commandTypes: commandTypesRun() },
      alarmOnOfflineGeneration: config.providersConfigured,
    });

    new CfnOutput(this, 'ApiUrl', { description: 'Base URL of the HTTP API', value: this.api.url });
    new CfnOutput(this, 'PublicBaseUrl', { description: 'Base URL given to webhooks (PUBLIC_BASE_URL)', value: publicBaseUrl });
    new CfnOutput(this, 'RelaySocketUrl', {
      description:
        'The ConversationRelay socket (WebSocket API stage); Twilio reaches it at PUBLIC_BASE_URL + /relay through the front door (publicHost)',
      value: this.relay.url,
    });
    if (this.frontDoor) {
      new CfnOutput(this, 'PublicHostTarget', {
        description: `Point ${this.frontDoor.url.slice('https://'.length)} here: a CNAME (or an alias record) to this CloudFront domain`,
        value: this.frontDoor.distribution.distributionDomainName,
      });
    }
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'SNS topic of every alarm (e-mail subscribers from infra/config.ts); subscribe more to be told',
      value: this.operations.alarmTopic.topicArn,
    });
  }
}

/** The environment's plain provider settings that a function declares it reads (and only those). */
function providerSettingsOf(definition: FunctionDefinition, config: EnvironmentConfig): Record<string, string> {
  return Object.fromEntries(
    (definition.settings ?? []).flatMap((name) =>
      config.providerSettings[name] === undefined ? [] : [[name, config.providerSettings[name]]],
    ),
  );
}
