import { InvalidEnvironmentError, type ConfigOverrides } from './config';

/** The `-c` overrides given to the app; an empty value counts as not given. */
export function parseOverrides(context: (key: string) => unknown): ConfigOverrides {
  const read = (key: string): string | undefined => {
    const value = context(key);
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' && typeof value !== 'number') throw new InvalidEnvironmentError(`-c ${key} must be a string`);
    return String(value).trim();
  };
  const publicBaseUrl = read('publicBaseUrl');
  const account = read('account');
  const region = read('region');
  const alarmEmail = read('alarmEmail');
  const twilioFromNumber = read('twilioFromNumber');
  const publicHost = read('publicHost');
  if (publicHost !== undefined && publicHost !== 'none') {
    throw new InvalidEnvironmentError(`-c publicHost takes only "none" (set a host with -c publicDomain and -c publicCertificateArn)`);
  }
  const publicDomain = read('publicDomain');
  const publicCertificateArn = read('publicCertificateArn');
  const apiGatewayAccountRole = read('apiGatewayAccountRole');
  if (apiGatewayAccountRole !== undefined && apiGatewayAccountRole !== 'create' && apiGatewayAccountRole !== 'existing') {
    throw new InvalidEnvironmentError(`-c apiGatewayAccountRole must be create or existing, got "${apiGatewayAccountRole}"`);
  }
  const allowPlaceholders = flag(context, 'allowPlaceholders');
  const sourceMaps = trueOrFalse(read('sourceMaps'), 'sourceMaps');
  const apiTracing = trueOrFalse(read('apiTracing'), 'apiTracing');
  return {
    ...(publicBaseUrl ? { publicBaseUrl } : {}),
    ...(account ? { account } : {}),
    ...(region ? { region } : {}),
    ...(alarmEmail
      ? {
          alarmEmails: alarmEmail
            .split(',')
            .map((email) => email.trim())
            .filter(Boolean),
        }
      : {}),
    ...(twilioFromNumber ? { twilioFromNumber } : {}),
    ...(publicHost ? { publicHost } : {}),
    ...(publicDomain ? { publicDomain } : {}),
    ...(publicCertificateArn ? { publicCertificateArn } : {}),
    ...(apiGatewayAccountRole ? { apiGatewayAccountRole } : {}),
    ...(allowPlaceholders ? { allowPlaceholders } : {}),
    ...(sourceMaps ? { sourceMaps: sourceMaps === 'true' } : {}),
    ...(apiTracing ? { apiTracing: apiTracing === 'true' } : {}),
  };
}

/** A `-c key=true|false` setting that may be left out (then the environment's own value holds). */
function trueOrFalse(value: string | undefined, key: string): 'true' | 'false' | undefined {
  if (value !== undefined && value !== 'true' && value !== 'false') {
    throw new InvalidEnvironmentError(`-c ${key} must be true or false, got "${value}"`);
  }
  return value;
}

/** A `-c key=true|false` switch (the CLI passes a string, a test may pass a boolean); unset is false. */
function flag(context: (key: string) => unknown, key: string): boolean {
  const value = context(key);
  if (value === undefined || value === '' || value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  throw new InvalidEnvironmentError(`-c ${key} must be true or false, got "${String(value)}"`);
}
