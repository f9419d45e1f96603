import type { AwsRequester } from './aws-signed-request';
import { element, members, queryError, text } from './xml';

/** An AWS API answered with an error the preflight does not expect. */
export class AwsApiError extends Error {
  constructor(
    readonly service: string,
    readonly code: string,
    message: string,
  ) {
    super(`${service}: ${code}${message ? ` (${message})` : ''}`);
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

/** The calls the preflight makes, each in its service's wire protocol. */
export class AwsApis {
  constructor(private readonly send: AwsRequester) {}

  /** STS GetCallerIdentity (Query): the account of the credentials. */
  async callerIdentity(): Promise<{ account: string; arn: string }> {
    const answer = await this.query('sts', { Action: 'GetCallerIdentity', Version: '2011-06-15' });
    return { account: text(answer, 'Account') ?? '', arn: text(answer, 'Arn') ?? '' };
  }

  /** SSM GetParameter (JSON 1.1): the value, or undefined when there is no such parameter. */
  async parameter(name: string): Promise<string | undefined> {
    const answer = await this.send('ssm', {
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AmazonSSM.GetParameter' },
      body: JSON.stringify({ Name: name }),
    });
    const body = parseJson(answer.body);
    if (answer.status === 200) return (body.Parameter as { Value?: string } | undefined)?.Value;
    const code = errorType(body);
    if (code === 'ParameterNotFound') return undefined;
    throw new AwsApiError('ssm', code, String(body.message ?? body.Message ?? ''));
  }

  /** CloudFormation DescribeStacks (Query): the stack, or undefined when it does not exist. */
  async stack(name: string): Promise<StackFacts | undefined> {
    const answer = await this.send('cloudformation', queryRequest({ Action: 'DescribeStacks', Version: '2010-05-15', StackName: name }));
    if (answer.status !== 200) {
      const { code, message } = queryError(answer.body);
      if (code === 'ValidationError' && /does not exist/.test(message)) return undefined;
      throw new AwsApiError('cloudformation', code, message);
    }
    const stack = members(element(answer.body, 'Stacks') ?? '')[0];
    if (stack === undefined) return undefined;
    const outputs = members(element(stack, 'Outputs') ?? '').map((output) => [text(output, 'OutputKey'), text(output, 'OutputValue')]);
    return {
      status: text(stack, 'StackStatus') ?? 'UNKNOWN',
      outputs: Object.fromEntries(outputs.filter((pair): pair is [string, string] => pair[0] !== undefined && pair[1] !== undefined)),
    };
  }

  /** API Gateway GetAccount (REST-JSON): the CloudWatch role API Gateway logs with, if any. */
  async apiGatewayAccount(): Promise<{ cloudwatchRoleArn?: string }> {
    const answer = await this.send('apigateway', { method: 'GET', path: '/account', headers: { accept: 'application/json' } });
    const body = parseJson(answer.body);
    if (answer.status !== 200) throw new AwsApiError('apigateway', errorType(body), String(body.message ?? ''));
    return typeof body.cloudwatchRoleArn === 'string' && body.cloudwatchRoleArn ? { cloudwatchRoleArn: body.cloudwatchRoleArn } : {};
  }

  /** Lambda GetAccountSettings (REST-JSON): the account's concurrency limit and what is left unreserved. */
  async lambdaConcurrency(): Promise<{ limit: number; unreserved: number }> {
    const answer = await this.send('lambda', { method: 'GET', path: '/2016-08-19/account-settings/' });
    const body = parseJson(answer.body);
    if (answer.status !== 200) throw new AwsApiError('lambda', errorType(body), String(body.message ?? body.Message ?? ''));
    const limit = body.AccountLimit as { ConcurrentExecutions?: number; UnreservedConcurrentExecutions?: number } | undefined;
    return { limit: limit?.ConcurrentExecutions ?? 0, unreserved: limit?.UnreservedConcurrentExecutions ?? 0 };
  }

  /** SNS ListSubscriptionsByTopic (Query), every page. */
  async subscriptions(topicArn: string): Promise<Subscription[]> {
    const found: Subscription[] = [];
    let nextToken: string | undefined;
    do {
      const answer = await this.query('sns', {
        Action: 'ListSubscriptionsByTopic',
        Version: '2010-03-31',
        TopicArn: topicArn,
        ...(nextToken ? { NextToken: nextToken } : {}),
      });
      for (const member of members(element(answer, 'Subscriptions') ?? '')) {
        found.push({
          protocol: text(member, 'Protocol') ?? '',
          endpoint: text(member, 'Endpoint') ?? '',
          subscriptionArn: text(member, 'SubscriptionArn') ?? '',
        });
      }
      nextToken = text(answer, 'NextToken') || undefined;
    } while (nextToken);
    return found;
  }

  private async query(service: 'sts' | 'sns', params: Record<string, string>): Promise<string> {
    const answer = await this.send(service, queryRequest(params));
    if (answer.status !== 200) {
      const { code, message } = queryError(answer.body);
      throw new AwsApiError(service, code, message);
    }
    return answer.body;
  }
}

function queryRequest(params: Record<string, string>) {
  return {
    method: 'POST' as const,
    path: '/',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body: new URLSearchParams(params).toString(),
  };
}

function parseJson(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The error code of a JSON error answer: `__type` (JSON 1.1) or `type`, without any namespace prefix. */
function errorType(body: Record<string, unknown>): string {
  const raw = String(body.__type ?? body.type ?? body.code ?? 'Unknown');
  return raw.slice(raw.lastIndexOf('#') + 1).split(':')[0] ?? raw;
}
