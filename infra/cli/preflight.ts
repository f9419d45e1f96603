/**
 * Checks, with the caller's AWS credentials and before anything is
 * created, what a deploy of one environment needs: bootstrap, API Gateway's
 * CloudWatch role, Lambda concurrency, the provider secrets, the alarm
 * subscriptions, the public host and the Twilio number.
 *
 *   npm run preflight -- -c env=prod
 *
 * Endpoints follow the AWS SDK settings (AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_<SERVICE>);
 * TWILIO_API_BASE_URL points at another Twilio root.
 */
import { resolveCname, lookup } from 'node:dns/promises';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { environmentConfig, InvalidEnvironmentError, UnknownEnvironmentError } from '../config';
import { parseOverrides } from '../config-overrides';
import { EDGE_REGION, needsEdgeRegion, runPreflight, stackNames, type HostResolver } from '../preflight/checks';
import { exitCodeOf, formatReport } from '../preflight/report';

const USAGE = `Usage: npm run preflight -- -c env=NAME [the -c flags given to cdk synth and deploy: -c account=… -c publicDomain=… …]`;

const systemResolver: HostResolver = {
  cnames: async (host) => {
    const chain: string[] = [];
    for (let name = host; chain.length < 8;) {
      const [next] = await resolveCname(name).catch(() => [] as string[]);
      if (!next) break;
      chain.push(next);
      name = next;
    }
    return chain;
  },
  addresses: async (host) => (await lookup(host, { all: true })).map((answer) => answer.address),
};

const context = parseContext(process.argv.slice(2));
let config;
try {
  config = environmentConfig(
    context.env,
    parseOverrides((key) => context[key]),
  );
} catch (error) {
  if (error instanceof UnknownEnvironmentError || error instanceof InvalidEnvironmentError) fail(`${error.message}\n\n${USAGE}`);
  throw error;
}
// Loaded once the arguments are known good, so a usage error answers without loading six SDK clients.
const { AwsApis } = await import('../preflight/aws-apis');
const aws = new AwsApis(config.region);
const edgeAws = needsEdgeRegion(config) ? new AwsApis(EDGE_REGION) : undefined;
const secretsManager = new SecretsManagerClient({ region: config.region });
const results = await runPreflight({
  config,
  aws,
  secretsManager,
  resolver: systemResolver,
  twilioBaseUrl: process.env.TWILIO_API_BASE_URL || config.providerSettings.TWILIO_API_BASE_URL || 'https://api.twilio.com',
  ...(edgeAws ? { edgeAws } : {}),
});
aws.destroy();
edgeAws?.destroy();
secretsManager.destroy();
process.stdout.write(formatReport(`Preflight of ${stackNames(config).stage}: account ${config.account}, region ${config.region}`, results));
process.exitCode = exitCodeOf(results);

/** `-c key=value` / `--context key=value` pairs, as the CDK CLI takes them. */
function parseContext(args: readonly string[]): Record<string, string> {
  const found: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '-h' || arg === '--help') fail(USAGE);
    const pair =
      arg === '-c' || arg === '--context' ? args[++i] : arg.startsWith('--context=') ? arg.slice('--context='.length) : undefined;
    const at = pair?.indexOf('=') ?? -1;
    if (pair === undefined || at < 1) fail(`Unexpected argument "${arg}".\n\n${USAGE}`);
    found[pair.slice(0, at)] = pair.slice(at + 1).trim();
  }
  return found;
}

/** Prints the message and exits with status 2 (usage problem), as the other CLIs do. */
function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
