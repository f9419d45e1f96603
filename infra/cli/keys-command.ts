import { parseArgs } from 'node:util';
import {
  generateApiKey,
  hashApiKey,
  isKeyUsable,
  keyIdOf,
  KEY_ID_LENGTH,
  registerApiKey,
  revokeApiKey,
  type ApiKeyRecord,
  type ApiKeyStore,
} from '../../shared/access/api-keys';
import { assertValidTenantId, type TenantStore } from '../../shared/access/tenants';
import { AppError } from '../../shared/platform/errors';
import { tenantLimitsSchema, type TenantLimits } from '../../shared/access/limits/tenant-limits';

export const KEYS_USAGE = `Usage:
  npm run keys -- create --sites SITE_ID[,SITE_ID…] [--tenant TENANT] [--label TEXT] [--expires-in 90d | --expires-at ISO_TIME]
  npm run keys -- list [--tenant TENANT]
  npm run keys -- revoke --id KEY_ID
  npm run keys -- revoke --key KEY
  npm run keys -- limits --tenant TENANT [--requests-per-second N] [--burst N] [--in-progress N]
                         [--monthly-tokens N] [--monthly-searches N] [--clear]

create prints a new API key once (on stdout) and its key id (on stderr); only
the key's SHA-256 is stored. The key's sites are granted to its tenant
(created if new). A tenant id is 1 to 63 characters: lower-case letters,
digits, "_" or "-", starting with a letter or digit (default:
tenant-<8 hex characters>). --expires-in takes days (90d) or hours (12h); an
expired key answers 401 like a revoked one.
list prints each key's id, tenant, sites, creation, expiry and revocation.
revoke stops a key, named by its id (from create, list or a log line) or by
the key itself; running functions forget it within a minute.
limits prints the tenant's own limits, or sets those given (--clear first
drops them all); a limit it does not set takes the deployment's TENANT_*
default. Running functions read the new limits within a minute.`;

/** Where the keys command writes: the new key on stdout, everything else on stderr. */
export interface KeysCommandOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** What the keys command works with. */
export interface KeysCommandPorts {
  keys: ApiKeyStore;
  tenants: TenantStore;
  now(): number;
}

/** A mistake in the command line: the message, then the usage, and exit status 2. */
export class KeysUsageError extends Error {
  override name = 'KeysUsageError';
}

/**
 * `npm run keys -- …`: create, list and revoke API keys. Returns the exit
 * status (0 done, 1 no such key, 2 usage); throws only on infrastructure faults.
 */
export async function runKeysCommand(args: string[], ports: KeysCommandPorts, out: KeysCommandOutput): Promise<number> {
  try {
    return await dispatch(args, ports, out);
  } catch (error) {
    if (error instanceof KeysUsageError) {
      out.stderr(`${error.message}\n\n${KEYS_USAGE}\n`);
      return 2;
    }
    if (error instanceof AppError) {
      out.stderr(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

async function dispatch(args: string[], ports: KeysCommandPorts, out: KeysCommandOutput): Promise<number> {
  const { positionals, values } = parseOptions(args);
  if (values.help) {
    out.stdout(`${KEYS_USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new KeysUsageError('Name one command: create, list, revoke or limits.');
  const tenant = values.tenant;
  if (tenant !== undefined) assertValidTenantId(tenant);
  switch (positionals[0]) {
    case 'create': {
      const sites = (values.sites ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean);
      if (sites.length === 0) throw new KeysUsageError('--sites is required.');
      const now = ports.now();
      const validUntil = expiryOf(values['expires-in'], values['expires-at'], now);
      const key = generateApiKey();
      const tenantId = tenant ?? `tenant-${hashApiKey(key).slice(0, 8)}`;
      const record = await registerApiKey(ports, {
        key,
        tenantId,
        siteIds: sites,
        now,
        ...(values.label ? { label: values.label } : {}),
        ...(validUntil === undefined ? {} : { validUntil }),
      });
      out.stdout(`${key}\n`);
      const expiry = record.valid_until ? `, valid until ${record.valid_until}` : '';
      out.stderr(
        `Key ${keyIdOf(record.key_hash)} created for tenant ${tenantId} and site(s) ${record.site_ids.join(', ')}${expiry}. The key is shown only this once; its id names it from now on.\n`,
      );
      return 0;
    }
    case 'list': {
      const records = await ports.keys.list(tenant);
      out.stdout(formatKeyList(records, ports.now()));
      return 0;
    }
    case 'revoke': {
      if ((values.id === undefined) === (values.key === undefined))
        throw new KeysUsageError('revoke needs one of --id KEY_ID or --key KEY.');
      if (values.id !== undefined && !new RegExp(`^[0-9a-f]{${KEY_ID_LENGTH}}$`, 'i').test(values.id.trim())) {
        throw new KeysUsageError(`--id: a key id is ${KEY_ID_LENGTH} hex characters (as create and list print it).`);
      }
      const record =
        values.id !== undefined ? await ports.keys.findById(values.id.trim()) : await ports.keys.findByHash(hashApiKey(values.key!));
      if (!record) {
        out.stderr('No such key.\n');
        return 1;
      }
      const revoked = await revokeApiKey(ports.keys, record, ports.now());
      out.stderr(
        `Key ${keyIdOf(revoked.key_hash)} of tenant ${revoked.tenant_id} revoked at ${revoked.revoked_at} (running functions forget it within a minute).\n`,
      );
      return 0;
    }
    case 'limits': {
      if (tenant === undefined) throw new KeysUsageError('limits needs --tenant TENANT.');
      const current = await ports.tenants.get(tenant);
      if (!current) {
        out.stderr(`No tenant "${tenant}".\n`);
        return 1;
      }
      const given = limitsGiven(values);
      const changed = values.clear === true || Object.keys(given).length > 0;
      const record = changed
        ? await ports.tenants.setLimits(tenant, { ...(values.clear ? {} : current.limits), ...given }, ports.now())
        : current;
      out.stdout(`${JSON.stringify({ tenant_id: tenant, limits: record.limits ?? {} })}\n`);
      if (changed) out.stderr(`Limits of tenant ${tenant} set (running functions read them within a minute).\n`);
      return 0;
    }
    default:
      throw new KeysUsageError(`Unknown command "${positionals[0]}".`);
  }
}

function parseOptions(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        sites: { type: 'string' },
        tenant: { type: 'string' },
        label: { type: 'string' },
        key: { type: 'string' },
        id: { type: 'string' },
        'expires-in': { type: 'string' },
        'expires-at': { type: 'string' },
        ...Object.fromEntries(Object.keys(LIMIT_OPTIONS).map((option) => [option, { type: 'string' as const }])),
        clear: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new KeysUsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The limits options, by the limit each sets. */
const LIMIT_OPTIONS = {
  'requests-per-second': 'requests_per_second',
  burst: 'burst',
  'in-progress': 'in_progress',
  'monthly-tokens': 'monthly_tokens',
  'monthly-searches': 'monthly_searches',
} as const satisfies Record<string, keyof TenantLimits>;

/** The limits given on the command line, checked as the tenant record keeps them. */
function limitsGiven(values: Record<string, string | boolean | undefined>): TenantLimits {
  const given: Record<string, number> = {};
  for (const [option, limit] of Object.entries(LIMIT_OPTIONS)) {
    const text = values[option];
    if (typeof text !== 'string') continue;
    const value = Number(text.trim());
    if (text.trim() === '' || !Number.isFinite(value)) throw new KeysUsageError(`--${option}: "${text}" is not a number.`);
    given[limit] = value;
  }
  const parsed = tenantLimitsSchema().safeParse(given);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const option = Object.entries(LIMIT_OPTIONS).find(([, limit]) => limit === issue?.path[0])?.[0] ?? 'limits';
    throw new KeysUsageError(`--${option}: ${issue?.message ?? 'not a valid limit'}.`);
  }
  return parsed.data;
}

const DURATION_UNITS_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000 };

/** Epoch ms of `--expires-in` (90d, 12h) or `--expires-at` (ISO time), which must lie ahead; undefined when neither is given. */
export function expiryOf(expiresIn: string | undefined, expiresAt: string | undefined, now: number): number | undefined {
  if (expiresIn !== undefined && expiresAt !== undefined) throw new KeysUsageError('Give --expires-in or --expires-at, not both.');
  if (expiresIn !== undefined) {
    const match = /^(\d{1,5})([dh])$/.exec(expiresIn.trim());
    if (!match || Number(match[1]) === 0) throw new KeysUsageError(`--expires-in: "${expiresIn}" is not a duration such as 90d or 12h.`);
    return now + Number(match[1]) * DURATION_UNITS_MS[match[2]!]!;
  }
  if (expiresAt !== undefined) {
    const at = /^\d{4}-\d{2}-\d{2}(T.+)?$/.test(expiresAt.trim()) ? Date.parse(expiresAt.trim()) : NaN;
    if (Number.isNaN(at)) throw new KeysUsageError(`--expires-at: "${expiresAt}" is not an ISO time such as 2027-03-01T00:00:00Z.`);
    if (at <= now) throw new KeysUsageError(`--expires-at: ${expiresAt} is not in the future.`);
    return at;
  }
  return undefined;
}

/** The keys as a table: id, tenant, state, creation, expiry, revocation, label, sites; a note when there are none. */
export function formatKeyList(records: readonly ApiKeyRecord[], now: number): string {
  if (records.length === 0) return 'No keys.\n';
  const header = ['KEY ID', 'TENANT', 'STATE', 'CREATED', 'EXPIRES', 'REVOKED', 'LABEL', 'SITES'];
  const rows = [...records]
    .sort((a, b) => a.tenant_id.localeCompare(b.tenant_id) || a.created_at.localeCompare(b.created_at))
    .map((record) => [
      keyIdOf(record.key_hash),
      record.tenant_id,
      record.revoked_at ? 'revoked' : isKeyUsable(record, now) ? 'active' : 'expired',
      record.created_at,
      record.valid_until ?? '-',
      record.revoked_at ?? '-',
      record.label ?? '-',
      record.site_ids.join(',') || '-',
    ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  return (
    [header, ...rows]
      .map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '))
      .join('\n') + '\n'
  );
}
