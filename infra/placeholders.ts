/**
 * Values that only stand in for a team's own: documentation accounts,
 * reserved domains, fictional phone numbers. A production environment's
 * synth refuses them (infra/config.ts), naming each with the `-c` flag
 * that sets it.
 */
import type { EnvironmentConfig } from './config';

/** One placeholder still in an environment's settings. */
export interface Placeholder {
  /** Where it is in infra/config.ts, e.g. `providerSettings.TWILIO_FROM_NUMBER`. */
  readonly setting: string;
  readonly value: string;
  /** How to set it without editing infra/config.ts, e.g. `-c account=<your 12-digit AWS account id>`; none where only the file can. */
  readonly flag?: string;
}

/** Accounts used as placeholders here and in AWS's own documentation. */
const PLACEHOLDER_ACCOUNTS = new Set(['111111111111', '222222222222', '333333333333', '123456789012']);

/** A placeholder AWS account id: a documentation account or twelve times one digit. */
export function isPlaceholderAccount(account: string): boolean {
  return PLACEHOLDER_ACCOUNTS.has(account) || /^(\d)\1{11}$/.test(account);
}

/** Reserved for documentation and testing (RFC 2606, RFC 6761): they never reach anyone. */
const RESERVED_DOMAINS = ['example.com', 'example.org', 'example.net'];
const RESERVED_TOP_LEVEL = ['example', 'test', 'invalid', 'localhost'];

/** A host name (or e-mail domain) reserved for examples and tests. */
export function isExampleHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  const topLevel = name.slice(name.lastIndexOf('.') + 1);
  return RESERVED_TOP_LEVEL.includes(topLevel) || RESERVED_DOMAINS.some((domain) => name === domain || name.endsWith(`.${domain}`));
}

/**
 * A number that reaches no one: the North American 555-0100 to 555-0199
 * range kept for fiction, and Twilio's magic test numbers (+1 500 555 0xxx).
 */
export function isFictionalNumber(e164: string): boolean {
  return /^\+1\d{3}55501\d{2}$/.test(e164) || /^\+15005550\d{3}$/.test(e164);
}

/** A certificate ARN in a placeholder account, or with the all-zero id. */
function isPlaceholderCertificate(arn: string): boolean {
  const [, , , , account = '', resource = ''] = arn.split(':');
  return isPlaceholderAccount(account) || /^certificate\/[0-]+$/.test(resource);
}

function hostOfUrl(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/** Every placeholder value in an environment's resolved settings, in the order of infra/config.ts. */
export function placeholdersOf(config: Omit<EnvironmentConfig, 'placeholders'>): Placeholder[] {
  const found: Placeholder[] = [];
  if (isPlaceholderAccount(config.account)) {
    found.push({ setting: 'account', value: config.account, flag: '-c account=<your 12-digit AWS account id>' });
  }
  const exampleEmails = config.alarmSubscriptions.emails.filter((email) => isExampleHost(email.slice(email.lastIndexOf('@') + 1)));
  if (exampleEmails.length > 0) {
    found.push({
      setting: 'alarmSubscriptions.emails',
      value: exampleEmails.join(','),
      flag: '-c alarmEmail=<on-call address>[,<another>]',
    });
  }
  for (const [name, value] of Object.entries(config.providerSettings)) {
    if (name === 'TWILIO_FROM_NUMBER' && isFictionalNumber(value)) {
      found.push({
        setting: 'providerSettings.TWILIO_FROM_NUMBER',
        value,
        flag: '-c twilioFromNumber=<a number of your Twilio account, E.164>',
      });
    }
    const host = name.endsWith('_BASE_URL') ? hostOfUrl(value) : undefined;
    if (host !== undefined && isExampleHost(host)) found.push({ setting: `providerSettings.${name}`, value });
  }
  if (config.publicBaseUrl !== undefined) {
    const host = hostOfUrl(config.publicBaseUrl);
    if (host !== undefined && isExampleHost(host))
      found.push({ setting: 'publicBaseUrl', value: config.publicBaseUrl, flag: '-c publicBaseUrl=https://<your host>' });
  }
  if (config.publicHost !== 'none') {
    const { domainName, certificateArn } = config.publicHost;
    if (isExampleHost(domainName))
      found.push({ setting: 'publicHost.domainName', value: domainName, flag: '-c publicDomain=<your host name>' });
    if (isPlaceholderCertificate(certificateArn)) {
      found.push({
        setting: 'publicHost.certificateArn',
        value: certificateArn,
        flag: '-c publicCertificateArn=<ARN of your ACM certificate in us-east-1>',
      });
    }
  }
  return found;
}

/** The one message that refuses a production synth: every placeholder, each with how to set it. */
export function placeholderRefusal(environment: string, placeholders: readonly Placeholder[]): string {
  const lines = placeholders.map(
    (placeholder) => `  - ${placeholder.setting} "${placeholder.value}": ${placeholder.flag ?? `set it in infra/config.ts`}`,
  );
  return [
    `Environment ${environment} still has placeholder values; set each in infra/config.ts (ENVIRONMENTS.${environment}) ` +
      'or pass its flag to every cdk command:',
    ...lines,
    '(-c allowPlaceholders=true synthesizes anyway, for CI and tests: that template is not deployable)',
  ].join('\n');
}

/** The loud stderr line of a production synth that let placeholders through. */
export function notDeployableWarning(stack: string, placeholders: readonly Placeholder[]): string {
  return (
    `${stack}: NOT DEPLOYABLE: -c allowPlaceholders=true let ${placeholders.length} placeholder value(s) through ` +
    `(${placeholders.map((placeholder) => placeholder.setting).join(', ')}); do not deploy this template`
  );
}
