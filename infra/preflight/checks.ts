import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { accountConcurrencyNeeded, MINIMUM_UNRESERVED_CONCURRENCY, type EnvironmentConfig } from '../config';
import { SECRETS, type SecretDefinition } from '../../shared/catalogue/secrets';
import type { AwsApis, StackFacts } from './aws-apis';
import { BOOTSTRAP_STACK, BOOTSTRAP_VERSION_PARAMETER, CLI_BOOTSTRAP_VERSION, REQUIRED_BOOTSTRAP_VERSION } from './bootstrap-version';

/** pass; fail (what to do); pending (cannot hold yet: deploy first); skipped (does not apply to this environment). */
export type CheckState = 'pass' | 'fail' | 'pending' | 'skipped';

/** The outcome of one check: one line for the person deploying. */
export interface CheckResult {
  readonly name: string;
  readonly state: CheckState;
  readonly detail: string;
}

/** Name resolution of the public host: the CNAME chain and the addresses. */
export interface HostResolver {
  /** CNAME targets of `host`; empty when it has none. */
  cnames(host: string): Promise<string[]>;
  /** Addresses `host` resolves to; throws when it does not resolve. */
  addresses(host: string): Promise<string[]>;
}

/** What the checks run with. */
export interface PreflightDeps {
  readonly config: EnvironmentConfig;
  readonly aws: AwsApis;
  readonly secretsManager: SecretsManagerClient;
  readonly resolver: HostResolver;
  /** Twilio's REST root (TWILIO_API_BASE_URL). */
  readonly twilioBaseUrl: string;
  /**
   * The same account's APIs in us-east-1, where an environment with a public host deploys its Edge stack (CloudFront takes
   * its WebACL from there only), when the environment's own region is another. Its bootstrap is checked too.
   */
  readonly edgeAws?: Pick<AwsApis, 'parameter' | 'stack'>;
}

/** Where CloudFront takes a WebACL from, and so where the Edge stack of an environment with a public host goes. */
export const EDGE_REGION = 'us-east-1';

/** Whether the environment deploys a stack to {@link EDGE_REGION} besides its own region. */
export function needsEdgeRegion(config: Pick<EnvironmentConfig, 'publicHost' | 'region'>): boolean {
  return config.publicHost !== 'none' && config.region !== EDGE_REGION;
}

/** How the API Gateway account's CloudWatch role comes to be. */
export type ApiGatewayAccountRole = 'create' | 'existing';

/**
 * Whether the stack sets the API Gateway account's CloudWatch role:
 * `apiGatewayAccountRole` of the environment when it has one, else 'create'.
 * The one place that knows the config field.
 */
export function apiGatewayAccountRoleOf(config: EnvironmentConfig): ApiGatewayAccountRole {
  const value = (config as { readonly apiGatewayAccountRole?: unknown }).apiGatewayAccountRole;
  return value === undefined || value === 'create' ? 'create' : 'existing';
}

/**
 * The names of the environment's two stacks, as infra/stages names them
 * (`stageId` + stack id; not imported: the stage module brings cdk-nag
 * and doubles the CLI's start).
 */
export function stackNames(config: Pick<EnvironmentConfig, 'name'>): { stage: string; stateful: string; service: string } {
  const stage = `Switchboard-${config.name}`;
  return { stage, stateful: `${stage}-Stateful`, service: `${stage}-Service` };
}

/** The output naming a secret's ARN on the stateful stack (`OpenaiSecretArn`). */
export function secretOutput(definition: SecretDefinition): string {
  return `${definition.id.charAt(0).toUpperCase()}${definition.id.slice(1)}SecretArn`;
}

/** Runs every check in order; a check that throws fails with the error's message. */
export async function runPreflight(deps: PreflightDeps): Promise<CheckResult[]> {
  const { config, aws } = deps;
  const names = stackNames(config);
  const stacks = new Map<string, Promise<StackFacts | undefined>>();
  const stack = (name: string) => {
    if (!stacks.has(name)) stacks.set(name, aws.stack(name));
    return stacks.get(name)!;
  };
  let twilioCredentials: Record<string, string> | undefined;

  const checks: Array<[string, () => Promise<Omit<CheckResult, 'name'>>]> = [
    ['credentials', () => checkCredentials(deps)],
    ['bootstrap', () => checkBootstrap(deps)],
    ['api gateway role', () => checkApiGatewayRole(deps)],
    ['lambda concurrency', async () => checkConcurrency(deps, await stack(names.service))],
    [
      'provider secrets',
      async () => {
        const outcome = await checkSecrets(deps, await stack(names.stateful));
        twilioCredentials = outcome.twilio;
        return outcome.result;
      },
    ],
    ['alarm subscriptions', async () => checkSubscriptions(deps, await stack(names.service))],
    ['public host', async () => checkPublicHost(deps, await stack(names.service))],
    ['twilio number', () => checkTwilioNumber(deps, twilioCredentials)],
  ];
  const results: CheckResult[] = [];
  for (const [name, check] of checks) {
    try {
      results.push({ name, ...(await check()) });
    } catch (error) {
      results.push({ name, state: 'fail', detail: `could not check: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  return results;
}

type Outcome = Omit<CheckResult, 'name'>;

async function checkCredentials({ config, aws }: PreflightDeps): Promise<Outcome> {
  const { account, arn } = await aws.callerIdentity();
  if (account === config.account) return { state: 'pass', detail: `account ${account} (${arn})` };
  return {
    state: 'fail',
    detail: `the credentials are for account ${account}, ${config.name} deploys to ${config.account}: use that account's profile, or set its account in infra/config.ts (-c account=…)`,
  };
}

async function checkBootstrap({ config, aws, edgeAws }: PreflightDeps): Promise<Outcome> {
  const own = await bootstrapIn(aws, config.account, config.region);
  if (!needsEdgeRegion(config)) return own;
  if (!edgeAws) throw new Error(`the environment's Edge stack goes to ${EDGE_REGION}, and no ${EDGE_REGION} APIs were given`);
  const edge = await bootstrapIn(edgeAws, config.account, EDGE_REGION);
  const detail = `${config.region}: ${own.detail}; ${EDGE_REGION} (the Edge stack): ${edge.detail}`;
  return { state: own.state === 'fail' || edge.state === 'fail' ? 'fail' : 'pass', detail };
}

/** The bootstrap of one region: its version parameter and its CDKToolkit stack. */
async function bootstrapIn(aws: Pick<AwsApis, 'parameter' | 'stack'>, account: string, region: string): Promise<Outcome> {
  const bootstrap = `npx --no-install cdk bootstrap aws://${account}/${region}`;
  const [value, toolkit] = await Promise.all([aws.parameter(BOOTSTRAP_VERSION_PARAMETER), aws.stack(BOOTSTRAP_STACK)]);
  if (value === undefined || toolkit === undefined) {
    const missing = [value === undefined ? BOOTSTRAP_VERSION_PARAMETER : '', toolkit === undefined ? `stack ${BOOTSTRAP_STACK}` : '']
      .filter(Boolean)
      .join(' and ');
    return { state: 'fail', detail: `not bootstrapped (no ${missing} in ${region}): run ${bootstrap}` };
  }
  const version = Number(value);
  if (!Number.isInteger(version) || version < REQUIRED_BOOTSTRAP_VERSION) {
    return {
      state: 'fail',
      detail: `bootstrap version ${value} is below ${REQUIRED_BOOTSTRAP_VERSION}, which the app needs: run ${bootstrap}`,
    };
  }
  if (/FAILED$|^ROLLBACK_COMPLETE$|^DELETE_/.test(toolkit.status)) {
    return {
      state: 'fail',
      detail: `stack ${BOOTSTRAP_STACK} is ${toolkit.status}: fix it in the CloudFormation console, then run ${bootstrap}`,
    };
  }
  const behind =
    version < CLI_BOOTSTRAP_VERSION ? `; the project's CLI bootstraps version ${CLI_BOOTSTRAP_VERSION}, run ${bootstrap} to update` : '';
  return {
    state: 'pass',
    detail: `version ${version} (needs ${REQUIRED_BOOTSTRAP_VERSION} or later), ${BOOTSTRAP_STACK} ${toolkit.status}${behind}`,
  };
}

async function checkApiGatewayRole({ config, aws }: PreflightDeps): Promise<Outcome> {
  if (apiGatewayAccountRoleOf(config) === 'create') return { state: 'pass', detail: 'the stack sets it' };
  const { cloudwatchRoleArn } = await aws.apiGatewayAccount();
  if (cloudwatchRoleArn) return { state: 'pass', detail: `set: ${cloudwatchRoleArn}` };
  return {
    state: 'fail',
    detail:
      `no CloudWatch role on API Gateway's account settings in ${config.region}: ` +
      'aws apigateway update-account --patch-operations op=replace,path=/cloudwatchRoleArn,value=<role ARN> (a role API Gateway may assume, with AmazonAPIGatewayPushToCloudWatchLogs), or let the stack create it',
  };
}

function checkConcurrency({ config, aws }: PreflightDeps, service: StackFacts | undefined): Promise<Outcome> {
  const needed = accountConcurrencyNeeded(config);
  const reserved = needed - MINIMUM_UNRESERVED_CONCURRENCY;
  const increase = `aws service-quotas request-service-quota-increase --service-code lambda --quota-code L-B99A9384 --desired-value ${needed}`;
  return aws.lambdaConcurrency().then(({ limit, unreserved }): Outcome => {
    if (limit < needed) {
      return {
        state: 'fail',
        detail: `the account's limit is ${limit}, ${config.name} needs ${needed} (reserves ${reserved} + ${MINIMUM_UNRESERVED_CONCURRENCY} unreserved): ${increase}`,
      };
    }
    // Before the first deploy the reservations still have to come out of what is unreserved now.
    if (service === undefined && unreserved < needed) {
      return {
        state: 'fail',
        detail: `limit ${limit}, but only ${unreserved} is unreserved (other functions reserve the rest); ${config.name} reserves ${reserved} and AWS keeps ${MINIMUM_UNRESERVED_CONCURRENCY}: free reservations elsewhere or ${increase}`,
      };
    }
    return { state: 'pass', detail: `limit ${limit}, unreserved ${unreserved}; ${config.name} needs ${needed}` };
  });
}

async function checkSecrets(
  { config, secretsManager }: PreflightDeps,
  stateful: StackFacts | undefined,
): Promise<{ result: Outcome; twilio?: Record<string, string> }> {
  if (stateful === undefined) {
    return {
      result: {
        state: 'pending',
        detail: 'deploy first (the stateful stack creates the secrets empty), then fill them (docs/deploying.md, step 8)',
      },
    };
  }
  const problems: string[] = [];
  const notes: string[] = [];
  let twilio: Record<string, string> | undefined;
  // A secret of the service's own (the CRM sealing key) is generated with the stack: there is nothing for an operator to fill.
  const credentials = SECRETS.filter((definition) => !definition.generated);
  for (const definition of credentials) {
    const arn = stateful.outputs[secretOutput(definition)];
    if (!arn) {
      problems.push(`${definition.id}: no ${secretOutput(definition)} output on the stateful stack (deploy it again)`);
      continue;
    }
    const value = await secretValue(secretsManager, arn);
    const fill = `aws secretsmanager put-secret-value --secret-id ${arn} --secret-string '{${definition.keys.map((key) => `"${key}":"…"`).join(',')}}'`;
    if (value === undefined) {
      problems.push(`${definition.id} has no value: ${fill}`);
      continue;
    }
    const missing = definition.keys.filter((key) => !value[key]);
    // Research skips a search provider whose keys are left out; it needs one of them.
    if (definition.id === 'search' && missing.length < definition.keys.length) {
      if (missing.length > 0) notes.push(`search without ${missing.join(', ')} (those providers are skipped)`);
    } else if (missing.length > 0) {
      problems.push(`${definition.id} lacks ${missing.join(', ')}: ${fill}`);
    }
    if (definition.id === 'twilio' && missing.length === 0) twilio = value;
  }
  if (problems.length === 0) {
    return {
      result: { state: 'pass', detail: [`${credentials.map((s) => s.id).join(', ')} filled`, ...notes].join('; ') },
      ...(twilio ? { twilio } : {}),
    };
  }
  // Where offline providers are expected, an empty secret is a choice, not a fault.
  const state: CheckState = config.providersConfigured ? 'fail' : 'pending';
  const suffix = config.providersConfigured ? '' : ` (providersConfigured is false in ${config.name}: offline providers stand in)`;
  return { result: { state, detail: `${problems.join('; ')}${suffix}` }, ...(twilio ? { twilio } : {}) };
}

/** The JSON object a secret holds (string values only), or undefined when it has no value; values never leave here but to the checks. */
async function secretValue(client: SecretsManagerClient, arn: string): Promise<Record<string, string> | undefined> {
  try {
    const answer = await client.send(new GetSecretValueCommand({ SecretId: arn }));
    const parsed: unknown = JSON.parse(answer.SecretString ?? 'null');
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch (error) {
    if (error instanceof SyntaxError) return {};
    if (error instanceof Error && error.name === 'ResourceNotFoundException') return undefined;
    throw new Error(`Secrets Manager: ${error instanceof Error ? error.name : 'error'} reading ${arn}`, { cause: error });
  }
}

async function checkSubscriptions({ config, aws }: PreflightDeps, service: StackFacts | undefined): Promise<Outcome> {
  const { emails } = config.alarmSubscriptions;
  if (emails.length === 0) return { state: 'skipped', detail: `no alarm e-mails in ${config.name} (alarmSubscriptions.emails)` };
  const topicArn = service?.outputs.AlarmTopicArn;
  if (service === undefined || !topicArn) return { state: 'pending', detail: 'deploy first, then confirm the mails' };
  const subscriptions = await aws.subscriptions(topicArn);
  const problems: string[] = [];
  for (const email of emails) {
    const mine = subscriptions.filter((s) => s.protocol === 'email' && s.endpoint.toLowerCase() === email.toLowerCase());
    if (mine.length === 0) problems.push(`${email} is not subscribed (deploy again: the stack subscribes it)`);
    else if (mine.every((s) => s.subscriptionArn === 'PendingConfirmation')) {
      problems.push(`${email} has not confirmed: open "AWS Notification - Subscription Confirmation" and click its link`);
    }
  }
  if (problems.length > 0) return { state: 'fail', detail: problems.join('; ') };
  return { state: 'pass', detail: `${emails.join(', ')} confirmed` };
}

async function checkPublicHost({ config, resolver }: PreflightDeps, service: StackFacts | undefined): Promise<Outcome> {
  const frontDoor = config.publicHost !== 'none';
  const host = frontDoor ? config.publicHost.domainName : config.publicBaseUrl && new URL(config.publicBaseUrl).hostname;
  if (!host) {
    return { state: 'skipped', detail: `no public host in ${config.name}: PUBLIC_BASE_URL is the HTTP API's own URL` };
  }
  const resolved = await resolve(resolver, host);
  if (!frontDoor) {
    // A front of the team's own at PUBLIC_BASE_URL: only the team knows where it should point.
    if ('error' in resolved) return { state: 'fail', detail: `${host} does not resolve (${resolved.error}): point it at your front door` };
    return { state: 'pass', detail: resolutionOf(host, resolved) };
  }
  const target = service?.outputs.PublicHostTarget;
  if (!target) {
    // The distribution the host must point at is made by the first deploy: nothing to compare with before it.
    const now = 'error' in resolved ? `does not resolve yet (${resolved.error})` : `resolves to ${resolutionOf(host, resolved)} now`;
    return {
      state: 'pending',
      detail: `${host} ${now}: deploy first, then point it at the PublicHostTarget output (a CNAME, or an alias)`,
    };
  }
  if ('error' in resolved) {
    return { state: 'fail', detail: `${host} does not resolve (${resolved.error}): add a CNAME (or an alias) from it to ${target}` };
  }
  if (resolved.cnames.some((name) => sameHost(name, target))) return { state: 'pass', detail: resolutionOf(host, resolved) };
  // An alias record (Route 53) shows no CNAME: the host then answers with the distribution's own addresses.
  const front = await resolve(resolver, target);
  if (!('error' in front) && resolved.addresses.some((address) => front.addresses.includes(address))) {
    return { state: 'pass', detail: `${resolutionOf(host, resolved)} (addresses of ${target}: an alias)` };
  }
  return {
    state: 'fail',
    detail: `${resolutionOf(host, resolved)}, not the front door: point ${host} at ${target} (a CNAME, or an alias), or Twilio and webhooks reach something else`,
  };
}

type Resolved = { cnames: string[]; addresses: string[] } | { error: string };

async function resolve(resolver: HostResolver, host: string): Promise<Resolved> {
  const cnames = await resolver.cnames(host).catch(() => [] as string[]);
  try {
    return { cnames, addresses: await resolver.addresses(host) };
  } catch (error) {
    return { error: error instanceof Error && 'code' in error ? String(error.code) : 'no answer' };
  }
}

function resolutionOf(host: string, { cnames, addresses }: { cnames: string[]; addresses: string[] }): string {
  const front = cnames.some((name) => /\.cloudfront\.net\.?$/i.test(name)) ? ' (CloudFront)' : '';
  return `${[host, ...cnames].join(' → ')}${front} → ${addresses.join(', ')}`;
}

const sameHost = (a: string, b: string) => a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

async function checkTwilioNumber(
  { config, twilioBaseUrl }: PreflightDeps,
  credentials: Record<string, string> | undefined,
): Promise<Outcome> {
  const number = config.providerSettings.TWILIO_FROM_NUMBER;
  if (!number) return { state: 'skipped', detail: `no TWILIO_FROM_NUMBER in ${config.name}` };
  const sid = credentials?.TWILIO_ACCOUNT_SID;
  const token = credentials?.TWILIO_AUTH_TOKEN;
  if (!sid || !token) return { state: 'skipped', detail: 'needs the twilio secret filled (see provider secrets)' };
  const url = `${twilioBaseUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(sid)}/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent(number)}`;
  const response = await fetch(url, {
    headers: { authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`, accept: 'application/json' },
    signal: AbortSignal.timeout(15_000),
  });
  if (response.status === 401) {
    return {
      state: 'fail',
      detail:
        "Twilio refuses the twilio secret's credentials (401): put the account SID and auth token of the account that owns the number",
    };
  }
  if (!response.ok) return { state: 'fail', detail: `could not check: Twilio answered ${response.status}` };
  const body = (await response.json()) as { incoming_phone_numbers?: TwilioNumber[] };
  const found = (body.incoming_phone_numbers ?? []).find((candidate) => candidate.phone_number === number);
  if (!found) {
    return {
      state: 'fail',
      detail: `TWILIO_FROM_NUMBER ${number} is not a number of the secret's Twilio account: set providerSettings.TWILIO_FROM_NUMBER (-c twilioFromNumber=…) to one of its numbers`,
    };
  }
  if (!found.capabilities?.voice) return { state: 'fail', detail: `${number} has no voice capability: use a voice-capable number` };
  const voiceUrl = found.voice_url || 'none';
  const statusCallback = found.status_callback || 'none';
  return { state: 'pass', detail: `${number} on the account, voice-capable; voice URL ${voiceUrl}, status callback ${statusCallback}` };
}

interface TwilioNumber {
  phone_number?: string;
  capabilities?: { voice?: boolean };
  voice_url?: string | null;
  status_callback?: string | null;
}
