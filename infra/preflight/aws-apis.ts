import { APIGatewayClient, GetAccountCommand } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { paginateListSubscriptionsByTopic, SNSClient } from '@aws-sdk/client-sns';
import { GetParameterCommand, ParameterNotFound, SSMClient } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';

/** An AWS API answered with an error the preflight does not expect, or did not answer (`code` NoAnswer). */
export class AwsApiError extends Error {
  constructor(
    readonly service: string,
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'AwsApiError';
  }
}

/** A deployed CloudFormation stack: its status and outputs. */
export interface StackFacts {
  readonly status: string;
  readonly outputs: Readonly<Record<string, string>>;
}

/** One subscription of an SNS topic. */
export interface Subscription {
  readonly protocol: string;
  readonly endpoint: string;
  /** `PendingConfirmation` until the subscriber confirms. */
  readonly subscriptionArn: string;
}

/**
 * The AWS calls the preflight makes, through the SDK clients. Credentials
 * come from the SDK's default chain; endpoints from its settings
 * (`AWS_ENDPOINT_URL`, `AWS_ENDPOINT_URL_<SERVICE>` such as
 * `AWS_ENDPOINT_URL_API_GATEWAY`, or a profile's `endpoint_url`).
 */
export class AwsApis {
  private readonly sts: STSClient;
  private readonly ssm: SSMClient;
  private readonly cloudFormation: CloudFormationClient;
  private readonly apiGateway: APIGatewayClient;
  private readonly lambda: LambdaClient;
  private readonly sns: SNSClient;

  constructor(region: string) {
    // A hung endpoint fails its check instead of holding the whole run.
    const config = { region, requestHandler: { connectionTimeout: 5_000, requestTimeout: 15_000 } };
    this.sts = new STSClient(config);
    this.ssm = new SSMClient(config);
    this.cloudFormation = new CloudFormationClient(config);
    this.apiGateway = new APIGatewayClient(config);
    this.lambda = new LambdaClient(config);
    this.sns = new SNSClient(config);
  }

  /** STS GetCallerIdentity: the account of the credentials. */
  async callerIdentity(): Promise<{ account: string; arn: string }> {
    const answer = await call('sts', () => this.sts.send(new GetCallerIdentityCommand({})));
    return { account: answer.Account ?? '', arn: answer.Arn ?? '' };
  }

  /** SSM GetParameter: the value, or undefined when there is no such parameter. */
  async parameter(name: string): Promise<string | undefined> {
    try {
      return (await this.ssm.send(new GetParameterCommand({ Name: name }))).Parameter?.Value;
    } catch (error) {
      if (error instanceof ParameterNotFound) return undefined;
      throw apiError('ssm', error);
    }
  }

  /** CloudFormation DescribeStacks: the stack, or undefined when it does not exist. */
  async stack(name: string): Promise<StackFacts | undefined> {
    let stacks;
    try {
      stacks = (await this.cloudFormation.send(new DescribeStacksCommand({ StackName: name }))).Stacks ?? [];
    } catch (error) {
      // CloudFormation has no error of its own for a missing stack: a ValidationError says so.
      if (error instanceof Error && error.name === 'ValidationError' && /does not exist/.test(error.message)) return undefined;
      throw apiError('cloudformation', error);
    }
    const stack = stacks[0];
    if (stack === undefined) return undefined;
    const outputs = (stack.Outputs ?? []).map((output) => [output.OutputKey, output.OutputValue]);
    return {
      status: stack.StackStatus ?? 'UNKNOWN',
      outputs: Object.fromEntries(outputs.filter((pair): pair is [string, string] => pair[0] !== undefined && pair[1] !== undefined)),
    };
  }

  /** API Gateway GetAccount: the CloudWatch role API Gateway logs with, if any. */
  async apiGatewayAccount(): Promise<{ cloudwatchRoleArn?: string }> {
    const answer = await call('apigateway', () => this.apiGateway.send(new GetAccountCommand({})));
    return answer.cloudwatchRoleArn ? { cloudwatchRoleArn: answer.cloudwatchRoleArn } : {};
  }

  /** Lambda GetAccountSettings: the account's concurrency limit and what is left unreserved. */
  async lambdaConcurrency(): Promise<{ limit: number; unreserved: number }> {
    const answer = await call('lambda', () => this.lambda.send(new GetAccountSettingsCommand({})));
    return { limit: answer.AccountLimit?.ConcurrentExecutions ?? 0, unreserved: answer.AccountLimit?.UnreservedConcurrentExecutions ?? 0 };
  }

  /** SNS ListSubscriptionsByTopic, every page. */
  async subscriptions(topicArn: string): Promise<Subscription[]> {
    const found: Subscription[] = [];
    await call('sns', async () => {
      for await (const page of paginateListSubscriptionsByTopic({ client: this.sns }, { TopicArn: topicArn })) {
        for (const subscription of page.Subscriptions ?? []) {
          found.push({
            protocol: subscription.Protocol ?? '',
            endpoint: subscription.Endpoint ?? '',
            subscriptionArn: subscription.SubscriptionArn ?? '',
          });
        }
      }
    });
    return found;
  }

  /** Closes the clients' connections. */
  destroy(): void {
    for (const client of [this.sts, this.ssm, this.cloudFormation, this.apiGateway, this.lambda, this.sns]) client.destroy();
  }
}

async function call<T>(service: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    throw apiError(service, error);
  }
}

/** The SDK's error as one line: the service's error code and message, or why the endpoint did not answer. */
function apiError(service: string, error: unknown): AwsApiError {
  if (!(error instanceof Error)) return new AwsApiError(service, 'Unknown', `${service}: ${String(error)}`, { cause: error });
  // Service errors carry the HTTP answer's status; a refused or reset connection is a plain Error with a code.
  const answered = '$metadata' in error && typeof (error.$metadata as { httpStatusCode?: number }).httpStatusCode === 'number';
  if (answered || error.name !== 'Error') {
    return new AwsApiError(service, error.name, `${service}: ${error.name}${error.message ? ` (${error.message})` : ''}`, { cause: error });
  }
  const reason = 'code' in error && typeof error.code === 'string' ? error.code : error.message;
  return new AwsApiError(service, 'NoAnswer', `${service} did not answer (${reason})`, { cause: error });
}
