import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A CloudFormation stack as the fake holds it. */
export interface FakeStack {
  status: string;
  outputs: Record<string, string>;
}

/** An SNS subscription as the fake holds it (`subscriptionArn: 'PendingConfirmation'` until confirmed). */
export interface FakeSubscription {
  protocol: string;
  endpoint: string;
  subscriptionArn: string;
}

/** What the fake account holds; tests change it between runs. */
export interface FakeAccountState {
  account: string;
  /** SSM parameters by name. */
  parameters: Record<string, string>;
  /** CloudFormation stacks by name. */
  stacks: Record<string, FakeStack>;
  /** API Gateway's account setting; undefined: none set. */
  cloudwatchRoleArn?: string;
  lambda: { limit: number; unreserved: number };
  /** SNS subscriptions by topic ARN (a topic absent here does not exist). */
  topics: Record<string, FakeSubscription[]>;
  /** Subscriptions per ListSubscriptionsByTopic page (SNS pages by 100). */
  snsPageSize: number;
}

/** A request the fake answered: the signing service (from the SigV4 credential scope) and the operation. */
export interface FakeAwsRequest {
  service: string;
  operation: string;
}

export interface AwsAccountFake {
  /** Endpoint for `AWS_ENDPOINT_URL` (or any `AWS_ENDPOINT_URL_<SERVICE>` of the services below). */
  readonly endpoint: string;
  readonly state: FakeAccountState;
  readonly requests: FakeAwsRequest[];
  close(): Promise<void>;
}

/**
 * Loopback stand-in for the account-level AWS calls of the preflight, each
 * in its service's wire protocol, as the AWS SDK v3 clients send and parse
 * it: STS GetCallerIdentity, CloudFormation DescribeStacks and SNS
 * ListSubscriptionsByTopic (Query, XML answers), SSM GetParameter (JSON
 * 1.1), API Gateway GetAccount and Lambda GetAccountSettings (REST-JSON).
 * One server; the service is read from the request's SigV4 credential
 * scope, so unsigned requests are refused.
 */
export async function startAwsAccountFake(initial: Partial<FakeAccountState> = {}): Promise<AwsAccountFake> {
  const state: FakeAccountState = {
    account: '333333333333',
    parameters: {},
    stacks: {},
    lambda: { limit: 1000, unreserved: 1000 },
    topics: {},
    snsPageSize: 100,
    ...initial,
  };
  const requests: FakeAwsRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(req, Buffer.concat(chunks).toString('utf8'), res));
  });

  function answer(req: IncomingMessage, body: string, res: ServerResponse): void {
    const scope = /Credential=[^/]+\/\d{8}\/[^/]+\/([^/]+)\/aws4_request/.exec(String(req.headers.authorization ?? ''));
    const service = scope?.[1];
    if (!service || !req.headers['x-amz-date']) return refuseUnsigned(req, res);
    // The Lambda API reference writes the path with a trailing slash, the SDK's model without: AWS takes both.
    const path = new URL(req.url ?? '/', 'http://fake').pathname.replace(/(.)\/$/, '$1');
    const form = Object.fromEntries(new URLSearchParams(body));
    if (service === 'sts') {
      requests.push({ service, operation: form.Action ?? '' });
      if (form.Action !== 'GetCallerIdentity') return xml(res, 400, queryError('Sender', 'InvalidAction', String(form.Action)));
      return xml(
        res,
        200,
        `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult>` +
          `<Arn>arn:aws:iam::${state.account}:user/deployer</Arn><UserId>AIDAEXAMPLE</UserId><Account>${state.account}</Account>` +
          `</GetCallerIdentityResult>${metadata()}</GetCallerIdentityResponse>`,
      );
    }
    if (service === 'cloudformation') {
      requests.push({ service, operation: form.Action ?? '' });
      if (form.Action !== 'DescribeStacks') return xml(res, 400, queryError('Sender', 'InvalidAction', String(form.Action)));
      const name = form.StackName ?? '';
      const stack = state.stacks[name];
      if (!stack) return xml(res, 400, queryError('Sender', 'ValidationError', `Stack with id ${name} does not exist`));
      const outputs = Object.entries(stack.outputs)
        .map(([key, value]) => `<member><OutputKey>${escape(key)}</OutputKey><OutputValue>${escape(value)}</OutputValue></member>`)
        .join('');
      return xml(
        res,
        200,
        `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member>` +
          `<StackName>${escape(name)}</StackName><StackId>arn:aws:cloudformation:eu-west-1:${state.account}:stack/${escape(name)}/1</StackId>` +
          `<CreationTime>2026-11-01T10:00:00.000Z</CreationTime><StackStatus>${stack.status}</StackStatus>` +
          `<Tags><member><Key>service</Key><Value>switchboard</Value></member></Tags><Outputs>${outputs}</Outputs>` +
          `</member></Stacks></DescribeStacksResult>${metadata()}</DescribeStacksResponse>`,
      );
    }
    if (service === 'sns') {
      requests.push({ service, operation: form.Action ?? '' });
      if (form.Action !== 'ListSubscriptionsByTopic') return xml(res, 400, queryError('Sender', 'InvalidAction', String(form.Action)));
      const subscriptions = state.topics[form.TopicArn ?? ''];
      if (!subscriptions) return xml(res, 404, queryError('Sender', 'NotFound', 'Topic does not exist'));
      const start = Number(form.NextToken ?? '0');
      const page = subscriptions.slice(start, start + state.snsPageSize);
      const next = start + state.snsPageSize < subscriptions.length ? `<NextToken>${start + state.snsPageSize}</NextToken>` : '';
      const members = page
        .map(
          (s) =>
            `<member><TopicArn>${escape(form.TopicArn ?? '')}</TopicArn><Protocol>${s.protocol}</Protocol>` +
            `<SubscriptionArn>${escape(s.subscriptionArn)}</SubscriptionArn><Owner>${state.account}</Owner><Endpoint>${escape(s.endpoint)}</Endpoint></member>`,
        )
        .join('');
      return xml(
        res,
        200,
        `<ListSubscriptionsByTopicResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><ListSubscriptionsByTopicResult>` +
          `<Subscriptions>${members}</Subscriptions>${next}</ListSubscriptionsByTopicResult>${metadata()}</ListSubscriptionsByTopicResponse>`,
      );
    }
    if (service === 'ssm') {
      const target = String(req.headers['x-amz-target'] ?? '');
      requests.push({ service, operation: target });
      if (target !== 'AmazonSSM.GetParameter') return json(res, 400, { __type: 'UnknownOperationException' }, 'application/x-amz-json-1.1');
      const { Name } = JSON.parse(body || '{}') as { Name?: string };
      const value = state.parameters[Name ?? ''];
      if (value === undefined) return json(res, 400, { __type: 'ParameterNotFound' }, 'application/x-amz-json-1.1');
      return json(
        res,
        200,
        { Parameter: { Name, Type: 'String', Value: value, Version: 1, LastModifiedDate: 1_795_000_000, DataType: 'text' } },
        'application/x-amz-json-1.1',
      );
    }
    if (service === 'apigateway' && req.method === 'GET' && path === '/account') {
      requests.push({ service, operation: 'GetAccount' });
      return json(res, 200, {
        ...(state.cloudwatchRoleArn ? { cloudwatchRoleArn: state.cloudwatchRoleArn } : {}),
        throttleSettings: { burstLimit: 5000, rateLimit: 10000 },
        features: ['UsagePlans'],
        apiKeyVersion: '4',
      });
    }
    if (service === 'lambda' && req.method === 'GET' && path === '/2016-08-19/account-settings') {
      requests.push({ service, operation: 'GetAccountSettings' });
      return json(res, 200, {
        AccountLimit: {
          TotalCodeSize: 80_530_636_800,
          CodeSizeUnzipped: 262_144_000,
          CodeSizeZipped: 52_428_800,
          ConcurrentExecutions: state.lambda.limit,
          UnreservedConcurrentExecutions: state.lambda.unreserved,
        },
        AccountUsage: { TotalCodeSize: 0, FunctionCount: 0 },
      });
    }
    requests.push({ service, operation: `${req.method} ${path}` });
    return json(res, 404, { message: `No route ${req.method} ${path} for ${service}` }, 'application/json', 'UnknownOperationException');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function xml(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/xml', 'x-amzn-requestid': 'fake-request' }).end(body);
}

function json(res: ServerResponse, status: number, body: unknown, contentType = 'application/json', errorType?: string): void {
  res
    .writeHead(status, {
      'content-type': contentType,
      'x-amzn-requestid': 'fake-request',
      ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
    })
    .end(JSON.stringify(body));
}

/**
 * AWS's answer to a request without SigV4, in the protocol the request
 * speaks: JSON 1.1 by its target, Query by its form, else REST-JSON.
 */
function refuseUnsigned(req: IncomingMessage, res: ServerResponse): void {
  const message = 'Missing Authentication Token';
  if (req.headers['x-amz-target']) {
    return json(res, 400, { __type: 'MissingAuthenticationTokenException', message }, 'application/x-amz-json-1.1');
  }
  if (String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return xml(res, 403, queryError('Sender', 'MissingAuthenticationToken', 'Request is missing Authentication Token'));
  }
  return json(res, 403, { message }, 'application/json', 'MissingAuthenticationTokenException');
}

function queryError(type: string, code: string, message: string): string {
  return `<ErrorResponse><Error><Type>${type}</Type><Code>${code}</Code><Message>${escape(message)}</Message></Error><RequestId>fake-request</RequestId></ErrorResponse>`;
}

function metadata(): string {
  return '<ResponseMetadata><RequestId>fake-request</RequestId></ResponseMetadata>';
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
