import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CfnRoute,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
  type CfnStage,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct, type IConstruct } from 'constructs';
import { DEFAULT_ROUTE_FUNCTION, ROUTES, type RouteDefinition } from '../../shared/catalogue/routes';
import type { FunctionId } from '../../shared/catalogue/functions';

/** Props of {@link ServiceApi}. */
export interface ServiceApiProps {
  /**
   * Name of the API in the console.
   * @default - the construct's id
   */
  readonly apiName?: string;
  /** The functions the routes name, by id. */
  readonly functions: ReadonlyMap<FunctionId, IFunction>;
  /**
   * The routes to expose.
   * @default ROUTES (shared/catalogue/routes.ts)
   */
  readonly routes?: readonly RouteDefinition[];
  /**
   * The function answering the `$default` route (everything no route matches).
   * @default DEFAULT_ROUTE_FUNCTION (shared/catalogue/routes.ts)
   */
  readonly defaultRouteFunction?: FunctionId;
  /** Throttling of the `$default` route and of every route without its own in `routeThrottles`. */
  readonly throttle: Required<ThrottleSettings>;
  /**
   * Throttling per route, keyed by route key (`METHOD /path`); each must name one of `routes`.
   * @default {} (every route throttled by `throttle`)
   */
  readonly routeThrottles?: Readonly<Record<string, Required<ThrottleSettings>>>;
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
 * The HTTP API (payload format 2.0): one route per `ROUTES` entry, the
 * `$default` route to the not-found function, a `$default` stage with
 * per-route throttling (a default for the rest) and a JSON access log. Authentication is the
 * handlers' job (API key → tenant; Twilio signatures), as the architecture
 * wants 401 before routing for every `/api/*` path.
 */
export class ServiceApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogGroup: LogGroup;
  /** The stage's base URL, without a trailing slash. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    const integrations = new Map<FunctionId, HttpLambdaIntegration>();
    const integrationFor = (functionId: FunctionId): HttpLambdaIntegration => {
      let integration = integrations.get(functionId);
      if (!integration) {
        const handler = props.functions.get(functionId);
        if (!handler) throw new Error(`Route target ${functionId} is not a created function`);
        integration = new HttpLambdaIntegration(`${functionId}Integration`, handler);
        integrations.set(functionId, integration);
      }
      return integration;
    };

    this.httpApi = new HttpApi(this, 'HttpApi', {
      ...(props.apiName === undefined ? {} : { apiName: props.apiName }),
      description: 'Switchboard: agent operations as commands',
      createDefaultStage: false,
      defaultIntegration: integrationFor(props.defaultRouteFunction ?? DEFAULT_ROUTE_FUNCTION),
    });
    const routesByKey = new Map<string, IConstruct>();
    for (const route of props.routes ?? ROUTES) {
      const [added] = this.httpApi.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: integrationFor(route.function),
      });
      if (added) routesByKey.set(`${route.method} ${route.path}`, added);
    }

    this.accessLogGroup = new LogGroup(this, 'AccessLog', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogGroup),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            requestTime: '$context.requestTimeEpoch',
            sourceIp: '$context.identity.sourceIp',
            httpMethod: '$context.httpMethod',
            routeKey: '$context.routeKey',
            path: '$context.path',
            status: '$context.status',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    this.url = this.httpApi.apiEndpoint;

    // RouteSettings is a free JSON map in the L1, written as CloudFormation spells it.
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const [routeKey, throttle] of Object.entries(props.routeThrottles ?? {})) {
      const route = routesByKey.get(routeKey);
      if (!route) throw new Error(`routeThrottles names ${routeKey}, which is not a route of this API`);
      routeSettings[routeKey] = { ThrottlingRateLimit: throttle.rateLimit, ThrottlingBurstLimit: throttle.burstLimit };
      // API Gateway refuses settings for a route that does not exist yet.
      this.stage.node.addDependency(route);
    }
    if (Object.keys(routeSettings).length > 0) (this.stage.node.defaultChild as CfnStage).routeSettings = routeSettings;

    for (const route of this.httpApi.node.findAll().filter((node) => node instanceof CfnRoute)) {
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason: 'Handlers authenticate (API key -> tenant; Twilio signature on webhooks) so unknown /api paths answer 401 (docs/api.md).',
      });
    }
  }
}
