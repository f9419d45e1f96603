import { RemovalPolicy, Stack, Token, Validations, type CfnElement } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CfnRoute, LogGroupLogDestination, WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Role } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { Throttle } from '../config';

/**
 * The stage's name: `relay`, so the stage URL (`wss://<api>/relay`) ends
 * as `relayUrlOf(PUBLIC_BASE_URL)` does, and a front door for
 * PUBLIC_BASE_URL can pass `/relay` through unchanged.
 */
export const RELAY_STAGE_NAME = 'relay';

/** Props of {@link RelaySocketApi}. */
export interface RelaySocketApiProps {
  /**
   * Name of the API in the console.
   * @default - the construct's id
   */
  readonly apiName?: string;
  /** The socket function: `$connect`, `$default` and `$disconnect` all invoke it. */
  readonly handler: LambdaFunction;
  /** Its role, granted `execute-api:ManageConnections` on this stage's connections (to answer and to close). */
  readonly handlerRole: Role;
  /** Messages per second (connects included) across every socket, and the burst. */
  readonly throttle: Throttle;
  /**
   * How long CloudWatch keeps the access log.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
  /**
   * Fate of the access log group when it leaves the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;
}

/**
 * The ConversationRelay socket in AWS: an API Gateway WebSocket API whose
 * `$connect`, `$default` and `$disconnect` routes invoke the socket
 * function (which checks Twilio's signature on `$connect` and answers
 * through the `@connections` API), one auto-deployed `relay` stage with
 * throttling and a JSON access log. The function is told the stage's
 * management URL (RELAY_CONNECTIONS_URL) and may manage its connections only.
 */
export class RelaySocketApi extends Construct {
  readonly webSocketApi: WebSocketApi;
  readonly stage: WebSocketStage;
  readonly accessLogGroup: LogGroup;
  /** `wss://…/relay`: where Twilio's ConversationRelay connects. */
  readonly url: string;
  /** `https://…/relay`: the `@connections` management endpoint. */
  readonly connectionsUrl: string;

  constructor(scope: Construct, id: string, props: RelaySocketApiProps) {
    super(scope, id);
    const integration = (name: string) => new WebSocketLambdaIntegration(`${name}Integration`, props.handler);
    this.webSocketApi = new WebSocketApi(this, 'WebSocketApi', {
      ...(props.apiName === undefined ? {} : { apiName: props.apiName }),
      description: 'Switchboard: Twilio ConversationRelay socket of the voice assistant (signed by Twilio, checked by the handler)',
      connectRouteOptions: { integration: integration('Connect') },
      disconnectRouteOptions: { integration: integration('Disconnect') },
      defaultRouteOptions: { integration: integration('Default') },
    });
    this.accessLogGroup = new LogGroup(this, 'AccessLog', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    this.stage = new WebSocketStage(this, 'Stage', {
      webSocketApi: this.webSocketApi,
      stageName: RELAY_STAGE_NAME,
      autoDeploy: true,
      throttle: { rateLimit: props.throttle.rateLimit, burstLimit: props.throttle.burstLimit },
      // Per-route metrics: the alarm on refused connects reads IntegrationError of `$connect` alone.
      detailedMetricsEnabled: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogGroup),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            requestTime: '$context.requestTimeEpoch',
            sourceIp: '$context.identity.sourceIp',
            routeKey: '$context.routeKey',
            eventType: '$context.eventType',
            connectionId: '$context.connectionId',
            status: '$context.status',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    this.url = this.stage.url;
    this.connectionsUrl = this.stage.callbackUrl;

    this.stage.grantManagementApiAccess(props.handlerRole);
    props.handler.addEnvironment('RELAY_CONNECTIONS_URL', this.connectionsUrl);

    for (const route of this.webSocketApi.node.findAll().filter((node) => node instanceof CfnRoute)) {
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'Twilio authenticates the socket with X-Twilio-Signature on the upgrade, checked by the $connect handler against PUBLIC_BASE_URL (docs/voice-calls.md).',
      });
    }
    const policy = props.handlerRole.node.tryFindChild('DefaultPolicy');
    if (policy) {
      Validations.of(policy).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${connectionsArnAsNagShowsIt(this)}]`,
        reason:
          'Socket connection ids are made by API Gateway per call; the grant is limited to this API, this stage and the @connections management path.',
      });
    }
  }
}

/**
 * The grant's resource as cdk-nag names it in a finding: the stack's
 * partition, region and account (`<AWS::Region>` where the stack leaves
 * them to deployment), the API as `<LogicalId>`, any method on this stage's
 * `@connections/*`.
 */
function connectionsArnAsNagShowsIt(relay: RelaySocketApi): string {
  const stack = Stack.of(relay);
  const known = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
  const region = known(stack.region, 'AWS::Region');
  const partition = Token.isUnresolved(stack.region) ? '<AWS::Partition>' : known(stack.partition, 'AWS::Partition');
  const api = stack.getLogicalId(relay.webSocketApi.node.defaultChild as CfnElement);
  return `arn:${partition}:execute-api:${region}:${known(stack.account, 'AWS::AccountId')}:<${api}>/${RELAY_STAGE_NAME}/*/@connections/*`;
}
