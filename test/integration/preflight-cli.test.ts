import { spawn } from 'node:child_process';
import { BOOTSTRAP_VERSION_PARAMETER } from '../../infra/preflight/bootstrap-version';
import { startAwsAccountFake, type AwsAccountFake } from '../fakes/aws-account';
import { startSecretsManagerFake, type SecretsManagerFake } from '../fakes/secrets-manager';
import { startTwilioNumbersFake, type TwilioNumbersFake } from '../fakes/twilio-numbers';

const ACCOUNT = '333333333333';
const TOPIC = `arn:aws:sns:eu-west-1:${ACCOUNT}:Switchboard-prod-Service-AlarmTopic`;
const ARN = (id: string) => `arn:aws:secretsmanager:eu-west-1:${ACCOUNT}:secret:${id}-AbCdEf`;

let aws: AwsAccountFake;
let secrets: SecretsManagerFake;
let twilio: TwilioNumbersFake;

beforeAll(async () => {
  [aws, secrets, twilio] = await Promise.all([startAwsAccountFake(), startSecretsManagerFake(), startTwilioNumbersFake()]);
  aws.state.parameters[BOOTSTRAP_VERSION_PARAMETER] = '33';
  aws.state.stacks = {
    CDKToolkit: { status: 'CREATE_COMPLETE', outputs: {} },
    'Switchboard-prod-Stateful': {
      status: 'CREATE_COMPLETE',
      outputs: { OpenaiSecretArn: ARN('openai'), SearchSecretArn: ARN('search'), TwilioSecretArn: ARN('twilio') },
    },
    'Switchboard-prod-Service': { status: 'CREATE_COMPLETE', outputs: { AlarmTopicArn: TOPIC } },
  };
  aws.state.lambda = { limit: 2000, unreserved: 400 };
  aws.state.topics[TOPIC] = [{ protocol: 'email', endpoint: 'switchboard-oncall@example.com', subscriptionArn: `${TOPIC}:1` }];
  secrets.set(ARN('openai'), { value: { OPENAI_API_KEY: 'sk-cli' } });
  secrets.set(ARN('search'), { value: { BRAVE_API_KEY: 'b' } });
  secrets.set(ARN('twilio'), { value: { TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: twilio.authToken } });
  twilio.numbers.push({
    phone_number: '+14155550100',
    capabilities: { voice: true, sms: false, mms: false, fax: false },
    voice_url: null,
    status_callback: null,
  });
});

afterAll(() => Promise.all([aws.close(), secrets.close(), twilio.close()]));

/** Runs `npm run preflight -- ARGS` as a process, its AWS endpoints and Twilio root on the fakes, credentials from the environment. */
async function preflight(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['infra/cli/run.mjs', 'infra/cli/preflight.ts', ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_OPTIONS: '',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      AWS_CONFIG_FILE: '/nonexistent/aws-config',
      AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_ACCESS_KEY_ID: 'AKIDPREFLIGHTCLI',
      AWS_SECRET_ACCESS_KEY: 'preflight-cli-secret',
      AWS_ENDPOINT_URL: aws.endpoint,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
      TWILIO_API_BASE_URL: twilio.baseUrl,
    },
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { status, ...output };
}

/**
 * The same -c flags synth takes: prod's placeholders let through (these tests are about the checks), and a front of
 * its own at a host that resolves on any machine, so the public host check needs no network.
 */
const PLACEHOLDERS_AND_OWN_FRONT = ['-c', 'allowPlaceholders=true', '-c', 'publicHost=none', '-c', 'publicBaseUrl=https://localhost'];

describe('npm run preflight', () => {
  it('prints one line per check and a summary, and exits 0 when nothing fails', async () => {
    const { status, stdout } = await preflight('-c', 'env=prod', ...PLACEHOLDERS_AND_OWN_FRONT);
    expect(stdout.trim().split('\n')).toEqual([
      `Preflight of Switchboard-prod: account ${ACCOUNT}, region eu-west-1`,
      expect.stringMatching(/^PASS +credentials +account 333333333333 /),
      expect.stringMatching(/^PASS +bootstrap +version 33 /),
      expect.stringMatching(/^PASS +api gateway role +the stack sets it$/),
      expect.stringMatching(/^PASS +lambda concurrency +limit 2000, unreserved 400; prod needs \d+$/),
      expect.stringMatching(/^PASS +provider secrets +openai, search, twilio filled; search without /),
      expect.stringMatching(/^PASS +alarm subscriptions +switchboard-oncall@example.com confirmed$/),
      expect.stringMatching(/^PASS +public host +localhost → /),
      expect.stringMatching(/^PASS +twilio number +\+14155550100 on the account, voice-capable; voice URL none, status callback none$/),
      '8 passed, 0 failed, 0 pending, 0 skipped: ready to deploy',
    ]);
    expect(status).toBe(0);
    expect(stdout).not.toContain(twilio.authToken);
  });

  it('exits 1 and says what to do when a check fails; -c overrides apply', async () => {
    const { status, stdout } = await preflight('-c', 'env=prod', ...PLACEHOLDERS_AND_OWN_FRONT, '-c', 'twilioFromNumber=+14155550199');
    expect(status).toBe(1);
    expect(stdout).toMatch(/^FAIL +twilio number +TWILIO_FROM_NUMBER \+14155550199 is not a number of the secret's Twilio account/m);
    expect(stdout).toMatch(/^7 passed, 1 failed, 0 pending, 0 skipped: fix the failures before deploying$/m);
  });

  it('exits 2 with the usage for an unknown environment', async () => {
    const { status, stdout, stderr } = await preflight('-c', 'env=qa');
    expect([status, stdout]).toEqual([2, '']);
    expect(stderr).toContain('unknown environment "qa"');
    expect(stderr).toContain('Usage: npm run preflight -- -c env=NAME');
  });
});
