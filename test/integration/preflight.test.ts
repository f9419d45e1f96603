import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { accountConcurrencyNeeded, environmentConfig, type EnvironmentConfig } from '../../infra/config';
import { AwsApis } from '../../infra/preflight/aws-apis';
import { BOOTSTRAP_VERSION_PARAMETER } from '../../infra/preflight/bootstrap-version';
import { runPreflight, stackNames, type CheckResult, type HostResolver } from '../../infra/preflight/checks';
import { stageId } from '../../infra/stages/switchboard-app';
import { exitCodeOf, formatReport } from '../../infra/preflight/report';
import { startAwsAccountFake, type AwsAccountFake } from '../fakes/aws-account';
import { startSecretsManagerFake, type SecretsManagerFake } from '../fakes/secrets-manager';
import { startTwilioNumbersFake, type TwilioNumbersFake } from '../fakes/twilio-numbers';

const ACCOUNT = '333333333333';
const TOPIC = `arn:aws:sns:eu-west-1:${ACCOUNT}:Switchboard-prod-Service-AlarmTopic`;
const ARN = (id: string) => `arn:aws:secretsmanager:eu-west-1:${ACCOUNT}:secret:${id}-AbCdEf`;
const FROM = '+14155550100';
const EMAIL = 'switchboard-oncall@example.com';
const OPENAI_KEY = 'sk-preflight-never-printed';

let aws: AwsAccountFake;
let secrets: SecretsManagerFake;
let twilio: TwilioNumbersFake;
let secretsManager: SecretsManagerClient;
const savedEnv = { ...process.env };

/** The account's us-east-1 bootstrap (where the Edge stack goes): its version parameter and whether CDKToolkit is there. */
let edge: { version?: string; toolkit?: string } = {};
const edgeAws = {
  parameter: async (name: string) => (name === BOOTSTRAP_VERSION_PARAMETER ? edge.version : undefined),
  stack: async (name: string) => (name === 'CDKToolkit' && edge.toolkit ? { status: edge.toolkit, outputs: {} } : undefined),
};

/** DNS as a table: host → CNAME chain and addresses; a host not listed does not resolve. */
let dns: Record<string, { cnames: string[]; addresses: string[] }> = {};
const resolver: HostResolver = {
  cnames: async (host) => dns[host]?.cnames ?? [],
  addresses: async (host) => {
    const entry = dns[host];
    if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return entry.addresses;
  },
};

beforeAll(async () => {
  [aws, secrets, twilio] = await Promise.all([startAwsAccountFake(), startSecretsManagerFake(), startTwilioNumbersFake()]);
  process.env.AWS_ENDPOINT_URL = aws.endpoint;
  process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = secrets.endpoint;
  process.env.AWS_ACCESS_KEY_ID = 'AKIDPREFLIGHTTEST';
  process.env.AWS_SECRET_ACCESS_KEY = 'preflight-test-secret';
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  secretsManager = new SecretsManagerClient({ region: 'eu-west-1' });
});

afterAll(async () => {
  secretsManager.destroy();
  process.env = savedEnv;
  await Promise.all([aws.close(), secrets.close(), twilio.close()]);
});

/** An account ready for a prod deploy: bootstrapped, deployed once, secrets filled, mail confirmed, number owned. */
beforeEach(() => {
  Object.assign(aws.state, {
    account: ACCOUNT,
    parameters: { [BOOTSTRAP_VERSION_PARAMETER]: '33' },
    stacks: {
      CDKToolkit: { status: 'UPDATE_COMPLETE', outputs: { BucketName: 'cdk-hnb659fds-assets' } },
      'Switchboard-prod-Stateful': {
        status: 'UPDATE_COMPLETE',
        outputs: { OpenaiSecretArn: ARN('openai'), SearchSecretArn: ARN('search'), TwilioSecretArn: ARN('twilio'), TableName: 't' },
      },
      'Switchboard-prod-Service': {
        status: 'UPDATE_COMPLETE',
        outputs: { AlarmTopicArn: TOPIC, PublicHostTarget: 'd111111abcdef8.cloudfront.net' },
      },
    },
    cloudwatchRoleArn: undefined,
    lambda: { limit: 2000, unreserved: 400 },
    topics: { [TOPIC]: [{ protocol: 'email', endpoint: EMAIL, subscriptionArn: `${TOPIC}:1111` }] },
    snsPageSize: 100,
  });
  aws.requests.length = 0;
  secrets.set(ARN('openai'), { value: { OPENAI_API_KEY: OPENAI_KEY } });
  secrets.set(ARN('search'), { value: { GOOGLE_CSE_API_KEY: 'g', GOOGLE_CSE_ID: 'cx', BRAVE_API_KEY: 'b', PERPLEXITY_API_KEY: 'p' } });
  secrets.set(ARN('twilio'), { value: { TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: twilio.authToken } });
  twilio.numbers.length = 0;
  twilio.numbers.push({
    phone_number: FROM,
    capabilities: { voice: true, sms: true, mms: false, fax: false },
    voice_url: 'https://demo.twilio.com/welcome/voice/',
    status_callback: null,
  });
  dns = { 'calls.example.com': { cnames: ['d111111abcdef8.cloudfront.net'], addresses: ['203.0.113.10', '203.0.113.11'] } };
  edge = { version: '33', toolkit: 'CREATE_COMPLETE' };
});

/** Prod with a public host; `extra` may set fields infra/config.ts does not declare yet (apiGatewayAccountRole). */
function prodConfig(extra: Partial<EnvironmentConfig> & Record<string, unknown> = {}): EnvironmentConfig {
  return { ...environmentConfig('prod', { allowPlaceholders: true, publicDomain: 'calls.example.com' }), ...extra };
}

async function run(config: EnvironmentConfig = prodConfig()): Promise<CheckResult[]> {
  const awsApis = new AwsApis(config.region);
  try {
    return await runPreflight({ config, aws: awsApis, secretsManager, resolver, twilioBaseUrl: twilio.baseUrl, edgeAws });
  } finally {
    awsApis.destroy();
  }
}

async function check(name: string, config?: EnvironmentConfig): Promise<CheckResult> {
  const result = (await run(config)).find((candidate) => candidate.name === name);
  if (!result) throw new Error(`no check named ${name}`);
  return result;
}

describe('preflight against a ready account', () => {
  it('passes every check, exits 0 and says so in the summary', async () => {
    const results = await run();
    expect(results.map((result) => [result.name, result.state])).toEqual([
      ['credentials', 'pass'],
      ['bootstrap', 'pass'],
      ['api gateway role', 'pass'],
      ['lambda concurrency', 'pass'],
      ['provider secrets', 'pass'],
      ['alarm subscriptions', 'pass'],
      ['public host', 'pass'],
      ['twilio number', 'pass'],
    ]);
    expect(exitCodeOf(results)).toBe(0);
    const report = formatReport('Preflight of Switchboard-prod', results);
    expect(report).toMatch(/^8 passed, 0 failed, 0 pending, 0 skipped: ready to deploy$/m);
    expect(report.split('\n')).toHaveLength(1 + 8 + 1 + 1);
  });

  it('never shows a secret value', async () => {
    const report = formatReport('t', await run());
    for (const value of [OPENAI_KEY, twilio.authToken, twilio.accountSid]) expect(report).not.toContain(value);
  });

  it('signs every AWS call and reads each service in its own protocol', async () => {
    await run();
    expect(new Set(aws.requests.map((request) => `${request.service} ${request.operation}`))).toEqual(
      new Set([
        'sts GetCallerIdentity',
        'ssm AmazonSSM.GetParameter',
        'cloudformation DescribeStacks',
        'lambda GetAccountSettings',
        'sns ListSubscriptionsByTopic',
      ]),
    );
    expect(secrets.requests).toEqual(expect.arrayContaining([`secretsmanager.GetSecretValue ${ARN('twilio')}`]));
  });
});

describe('the AWS endpoints', () => {
  it('are refused without a signature, in each protocol', async () => {
    const lambda = await fetch(`${aws.endpoint}/2016-08-19/account-settings`);
    expect([lambda.status, lambda.headers.get('x-amzn-errortype')]).toEqual([403, 'MissingAuthenticationTokenException']);
    const ssm = await fetch(aws.endpoint, { method: 'POST', headers: { 'x-amz-target': 'AmazonSSM.GetParameter' }, body: '{}' });
    expect([ssm.status, ((await ssm.json()) as { __type?: string }).__type]).toEqual([400, 'MissingAuthenticationTokenException']);
    const sts = await fetch(aws.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'Action=GetCallerIdentity&Version=2011-06-15',
    });
    expect([sts.status, await sts.text()]).toEqual([403, expect.stringContaining('<Code>MissingAuthenticationToken</Code>')]);
    expect(aws.requests).toEqual([]);
  });

  it("follow a service's own AWS_ENDPOINT_URL_<SERVICE> over AWS_ENDPOINT_URL", async () => {
    const other = await startAwsAccountFake({ cloudwatchRoleArn: `arn:aws:iam::${ACCOUNT}:role/elsewhere` });
    process.env.AWS_ENDPOINT_URL_API_GATEWAY = other.endpoint;
    try {
      const result = await check('api gateway role', prodConfig({ apiGatewayAccountRole: 'existing' }));
      expect(result).toMatchObject({ state: 'pass', detail: `set: arn:aws:iam::${ACCOUNT}:role/elsewhere` });
      expect(other.requests).toEqual([{ service: 'apigateway', operation: 'GetAccount' }]);
      expect(aws.requests.some((request) => request.service === 'apigateway')).toBe(false);
    } finally {
      delete process.env.AWS_ENDPOINT_URL_API_GATEWAY;
      await other.close();
    }
  });
});

describe('stack names', () => {
  it('are those of the CDK app (the stage id and its stacks)', () => {
    expect(stackNames({ name: 'staging' })).toEqual({
      stage: stageId('staging'),
      stateful: `${stageId('staging')}-Stateful`,
      service: `${stageId('staging')}-Service`,
    });
  });
});

describe('credentials', () => {
  it('fails when the credentials are of another account than the environment', async () => {
    aws.state.account = '444444444444';
    const result = await check('credentials');
    expect(result.state).toBe('fail');
    expect(result.detail).toContain(`the credentials are for account 444444444444, prod deploys to ${ACCOUNT}`);
  });
});

describe('bootstrap', () => {
  it('passes with the version and the toolkit status, of us-east-1 too where the Edge stack goes', async () => {
    expect((await check('bootstrap')).detail).toBe(
      'eu-west-1: version 33 (needs 6 or later), CDKToolkit UPDATE_COMPLETE; us-east-1 (the Edge stack): version 33 (needs 6 or later), CDKToolkit CREATE_COMPLETE',
    );
  });

  it('fails when us-east-1 is not bootstrapped for an environment with a public host, saying how to', async () => {
    edge = {};
    expect(await check('bootstrap')).toMatchObject({
      state: 'fail',
      detail: expect.stringContaining(
        `us-east-1 (the Edge stack): not bootstrapped (no ${BOOTSTRAP_VERSION_PARAMETER} and stack CDKToolkit in us-east-1): run npx --no-install cdk bootstrap aws://${ACCOUNT}/us-east-1`,
      ),
    });
  });

  it('checks the own region alone without a public host (no Edge stack)', async () => {
    edge = {};
    const noHost = environmentConfig('prod', { allowPlaceholders: true, publicHost: 'none', publicBaseUrl: 'https://front.example.com' });
    expect(await check('bootstrap', noHost)).toEqual({
      name: 'bootstrap',
      state: 'pass',
      detail: 'version 33 (needs 6 or later), CDKToolkit UPDATE_COMPLETE',
    });
  });

  it('passes an older but sufficient version, saying how to update', async () => {
    aws.state.parameters[BOOTSTRAP_VERSION_PARAMETER] = '21';
    const result = await check('bootstrap');
    expect(result.state).toBe('pass');
    expect(result.detail).toContain(`bootstraps version 33, run npx --no-install cdk bootstrap aws://${ACCOUNT}/eu-west-1 to update`);
  });

  it('fails below the version the app needs', async () => {
    aws.state.parameters[BOOTSTRAP_VERSION_PARAMETER] = '5';
    const result = await check('bootstrap');
    expect(result).toMatchObject({ state: 'fail', detail: expect.stringContaining('bootstrap version 5 is below 6') });
  });

  it('fails without the version parameter', async () => {
    aws.state.parameters = {};
    const result = await check('bootstrap');
    expect(result.state).toBe('fail');
    expect(result.detail).toContain(
      `eu-west-1: not bootstrapped (no ${BOOTSTRAP_VERSION_PARAMETER} in eu-west-1): run npx --no-install cdk bootstrap aws://${ACCOUNT}/eu-west-1;`,
    );
  });

  it('fails without the CDKToolkit stack', async () => {
    delete aws.state.stacks.CDKToolkit;
    expect(await check('bootstrap')).toMatchObject({ state: 'fail', detail: expect.stringContaining('no stack CDKToolkit') });
  });

  it('fails when the CDKToolkit stack is broken', async () => {
    aws.state.stacks.CDKToolkit!.status = 'UPDATE_ROLLBACK_FAILED';
    expect(await check('bootstrap')).toMatchObject({
      state: 'fail',
      detail: expect.stringContaining('CDKToolkit is UPDATE_ROLLBACK_FAILED'),
    });
  });
});

describe('api gateway role', () => {
  it('passes without asking when the stack sets the role (no apiGatewayAccountRole: create)', async () => {
    expect(await check('api gateway role')).toEqual({ name: 'api gateway role', state: 'pass', detail: 'the stack sets it' });
    expect(aws.requests.some((request) => request.service === 'apigateway')).toBe(false);
  });

  it('passes an existing role when the environment brings its own', async () => {
    aws.state.cloudwatchRoleArn = `arn:aws:iam::${ACCOUNT}:role/apigw-logs`;
    const result = await check('api gateway role', prodConfig({ apiGatewayAccountRole: 'existing' }));
    expect(result).toMatchObject({ state: 'pass', detail: `set: arn:aws:iam::${ACCOUNT}:role/apigw-logs` });
  });

  it('fails when the environment brings its own role and none is set', async () => {
    const result = await check('api gateway role', prodConfig({ apiGatewayAccountRole: 'existing' }));
    expect(result.state).toBe('fail');
    expect(result.detail).toContain('aws apigateway update-account --patch-operations op=replace,path=/cloudwatchRoleArn');
  });
});

describe('lambda concurrency', () => {
  const needed = accountConcurrencyNeeded(prodConfig());

  it('fails when the account limit is below what prod needs', async () => {
    aws.state.lambda = { limit: 1000, unreserved: 1000 };
    const result = await check('lambda concurrency');
    expect(result.state).toBe('fail');
    expect(result.detail).toContain(`the account's limit is 1000, prod needs ${needed}`);
    expect(result.detail).toContain(`--quota-code L-B99A9384 --desired-value ${needed}`);
  });

  it('fails before the first deploy when other reservations leave too little unreserved', async () => {
    delete aws.state.stacks['Switchboard-prod-Service'];
    aws.state.lambda = { limit: 3000, unreserved: needed - 1 };
    const result = await check('lambda concurrency');
    expect(result).toMatchObject({ state: 'fail', detail: expect.stringContaining(`only ${needed - 1} is unreserved`) });
  });

  it('passes before the first deploy when enough is unreserved', async () => {
    delete aws.state.stacks['Switchboard-prod-Service'];
    aws.state.lambda = { limit: 3000, unreserved: needed };
    expect(await check('lambda concurrency')).toMatchObject({
      state: 'pass',
      detail: `limit 3000, unreserved ${needed}; prod needs ${needed}`,
    });
  });
});

describe('provider secrets', () => {
  it('is pending before the first deploy', async () => {
    delete aws.state.stacks['Switchboard-prod-Stateful'];
    const result = await check('provider secrets');
    expect(result).toMatchObject({ state: 'pending', detail: expect.stringContaining('deploy first') });
  });

  it('fails for a secret without a value, saying how to fill it', async () => {
    secrets.set(ARN('openai'), { empty: true });
    const result = await check('provider secrets');
    expect(result.state).toBe('fail');
    expect(result.detail).toBe(
      `openai has no value: aws secretsmanager put-secret-value --secret-id ${ARN('openai')} --secret-string '{"OPENAI_API_KEY":"…"}'`,
    );
  });

  it('is pending, not failing, where offline providers are expected', async () => {
    secrets.set(ARN('openai'), { empty: true });
    const result = await check('provider secrets', prodConfig({ providersConfigured: false }));
    expect(result).toMatchObject({ state: 'pending', detail: expect.stringContaining('providersConfigured is false') });
  });

  it('fails for missing keys, naming them and never the values', async () => {
    secrets.set(ARN('twilio'), { value: { TWILIO_ACCOUNT_SID: twilio.accountSid } });
    const result = await check('provider secrets');
    expect(result.state).toBe('fail');
    expect(result.detail).toContain('twilio lacks TWILIO_AUTH_TOKEN');
    expect(result.detail).not.toContain(twilio.accountSid);
  });

  it('fails when a secret output is missing', async () => {
    delete aws.state.stacks['Switchboard-prod-Stateful']!.outputs.SearchSecretArn;
    expect(await check('provider secrets')).toMatchObject({ state: 'fail', detail: expect.stringContaining('no SearchSecretArn output') });
  });

  it('passes a search secret with some providers left out, naming them', async () => {
    secrets.set(ARN('search'), { value: { BRAVE_API_KEY: 'b' } });
    const result = await check('provider secrets');
    expect(result.state).toBe('pass');
    expect(result.detail).toContain('search without GOOGLE_CSE_API_KEY, GOOGLE_CSE_ID, PERPLEXITY_API_KEY (those providers are skipped)');
  });

  it('fails a search secret without any key', async () => {
    secrets.set(ARN('search'), { value: {} });
    expect(await check('provider secrets')).toMatchObject({
      state: 'fail',
      detail: expect.stringContaining('search lacks GOOGLE_CSE_API_KEY'),
    });
  });
});

describe('alarm subscriptions', () => {
  it('fails while a mail is unconfirmed', async () => {
    aws.state.topics[TOPIC] = [{ protocol: 'email', endpoint: EMAIL, subscriptionArn: 'PendingConfirmation' }];
    const result = await check('alarm subscriptions');
    expect(result).toMatchObject({ state: 'fail', detail: expect.stringContaining(`${EMAIL} has not confirmed`) });
  });

  it('fails for a configured address the topic lacks', async () => {
    aws.state.topics[TOPIC] = [{ protocol: 'email', endpoint: 'someone-else@example.com', subscriptionArn: `${TOPIC}:2` }];
    expect(await check('alarm subscriptions')).toMatchObject({
      state: 'fail',
      detail: expect.stringContaining(`${EMAIL} is not subscribed`),
    });
  });

  it('reads every page of subscriptions', async () => {
    aws.state.snsPageSize = 1;
    aws.state.topics[TOPIC] = [
      { protocol: 'https', endpoint: 'https://hooks.example.com', subscriptionArn: `${TOPIC}:3` },
      { protocol: 'email', endpoint: 'other@example.com', subscriptionArn: 'PendingConfirmation' },
      { protocol: 'email', endpoint: EMAIL, subscriptionArn: `${TOPIC}:1111` },
    ];
    expect(await check('alarm subscriptions')).toMatchObject({ state: 'pass', detail: `${EMAIL} confirmed` });
    expect(aws.requests.filter((request) => request.service === 'sns')).toHaveLength(3);
  });

  it('is pending before the first deploy', async () => {
    delete aws.state.stacks['Switchboard-prod-Service'];
    expect(await check('alarm subscriptions')).toEqual({
      name: 'alarm subscriptions',
      state: 'pending',
      detail: 'deploy first, then confirm the mails',
    });
  });

  it('is skipped without alarm e-mails', async () => {
    const result = await check('alarm subscriptions', prodConfig({ alarmSubscriptions: { emails: [] } }));
    expect(result.state).toBe('skipped');
  });
});

describe('public host', () => {
  const service = () => aws.state.stacks['Switchboard-prod-Service']!;

  it('passes when the host names the front door, showing what it resolves to', async () => {
    expect(await check('public host')).toEqual({
      name: 'public host',
      state: 'pass',
      detail: 'calls.example.com → d111111abcdef8.cloudfront.net (CloudFront) → 203.0.113.10, 203.0.113.11',
    });
  });

  it('passes an alias record, which answers with the distribution’s own addresses', async () => {
    dns = {
      'calls.example.com': { cnames: [], addresses: ['198.51.100.7'] },
      'd111111abcdef8.cloudfront.net': { cnames: [], addresses: ['198.51.100.7', '198.51.100.8'] },
    };
    expect(await check('public host')).toMatchObject({
      state: 'pass',
      detail: 'calls.example.com → 198.51.100.7 (addresses of d111111abcdef8.cloudfront.net: an alias)',
    });
  });

  it('fails when the host points somewhere else than the front door', async () => {
    dns = {
      'calls.example.com': { cnames: ['old-front.example.net'], addresses: ['192.0.2.44'] },
      'd111111abcdef8.cloudfront.net': { cnames: [], addresses: ['198.51.100.7'] },
    };
    expect(await check('public host')).toMatchObject({
      state: 'fail',
      detail: expect.stringContaining('not the front door: point calls.example.com at d111111abcdef8.cloudfront.net'),
    });
  });

  it('fails when the host does not resolve once the front door exists, naming it', async () => {
    dns = {};
    expect(await check('public host')).toMatchObject({
      state: 'fail',
      detail: 'calls.example.com does not resolve (ENOTFOUND): add a CNAME (or an alias) from it to d111111abcdef8.cloudfront.net',
    });
  });

  it('is pending before the first deploy, which makes the front door, whether the host resolves or not', async () => {
    delete service().outputs.PublicHostTarget;
    dns = {};
    expect(await check('public host')).toMatchObject({
      state: 'pending',
      detail: expect.stringContaining(
        'calls.example.com does not resolve yet (ENOTFOUND): deploy first, then point it at the PublicHostTarget',
      ),
    });
    delete aws.state.stacks['Switchboard-prod-Service'];
    dns = { 'calls.example.com': { cnames: [], addresses: ['192.0.2.44'] } };
    expect(await check('public host')).toMatchObject({
      state: 'pending',
      detail: expect.stringContaining('resolves to calls.example.com → 192.0.2.44 now: deploy first'),
    });
  });

  it("checks a front of the team's own at PUBLIC_BASE_URL", async () => {
    dns = { 'front.example.com': { cnames: [], addresses: ['203.0.113.20'] } };
    const own = environmentConfig('prod', { allowPlaceholders: true, publicHost: 'none', publicBaseUrl: 'https://front.example.com' });
    expect(await check('public host', own)).toMatchObject({ state: 'pass', detail: 'front.example.com → 203.0.113.20' });
    dns = {};
    expect(await check('public host', own)).toMatchObject({
      state: 'fail',
      detail: expect.stringContaining('front.example.com does not resolve'),
    });
  });

  it('is skipped when PUBLIC_BASE_URL is the API URL (no public host)', async () => {
    const result = await check('public host', environmentConfig('dev'));
    expect(result.state).toBe('skipped');
  });
});

describe('twilio number', () => {
  it('passes, reporting the voice URL and status callback', async () => {
    expect((await check('twilio number')).detail).toBe(
      `${FROM} on the account, voice-capable; voice URL https://demo.twilio.com/welcome/voice/, status callback none`,
    );
    expect(twilio.requests.at(-1)?.query).toEqual({ PhoneNumber: FROM });
  });

  it('fails when the number is not on the account', async () => {
    twilio.numbers.length = 0;
    expect(await check('twilio number')).toMatchObject({ state: 'fail', detail: expect.stringContaining(`${FROM} is not a number of`) });
  });

  it('fails when the number cannot make calls', async () => {
    twilio.numbers[0]!.capabilities.voice = false;
    expect(await check('twilio number')).toMatchObject({
      state: 'fail',
      detail: `${FROM} has no voice capability: use a voice-capable number`,
    });
  });

  it('fails when Twilio refuses the credentials', async () => {
    secrets.set(ARN('twilio'), { value: { TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: 'wrong' } });
    expect(await check('twilio number')).toMatchObject({ state: 'fail', detail: expect.stringContaining('(401)') });
  });

  it('is skipped while the twilio secret is empty', async () => {
    secrets.set(ARN('twilio'), { empty: true });
    expect(await check('twilio number')).toMatchObject({ state: 'skipped' });
  });
});
