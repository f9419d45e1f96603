import { parseArgs } from 'node:util';
import { dynamoApiKeyStore, generateApiKey, hashApiKey, registerApiKey } from '../../shared/access/api-keys';
import { dynamoTenantStore } from '../../shared/access/tenants';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { cliTableName, ensureLocalCredentials, fail, tenantOption } from './table';

const USAGE = `Usage:
  npm run keys -- create --sites SITE_ID[,SITE_ID…] [--tenant TENANT] [--label TEXT]
  npm run keys -- revoke --key KEY

create prints a new API key once; only its SHA-256 is stored. The key's sites
are granted to its tenant (created if new). A tenant id is 1 to 63 characters:
lower-case letters, digits, "_" or "-", starting with a letter or digit
(default: tenant-<8 hex characters>).`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    sites: { type: 'string' },
    tenant: { type: 'string' },
    label: { type: 'string' },
    key: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help || positionals.length !== 1) fail(USAGE);
const requestedTenant = tenantOption(values.tenant);
ensureLocalCredentials();
const db = createDocumentClient();
const store = dynamoApiKeyStore(db, cliTableName());
const tenants = dynamoTenantStore(db, cliTableName());

switch (positionals[0]) {
  case 'create': {
    const sites = (values.sites ?? '').split(',').map((id) => id.trim()).filter(Boolean);
    if (sites.length === 0) fail(`--sites is required.\n\n${USAGE}`);
    const key = generateApiKey();
    const tenantId = requestedTenant ?? `tenant-${hashApiKey(key).slice(0, 8)}`;
    const record = await registerApiKey(
      { keys: store, tenants },
      { key, tenantId, siteIds: sites, now: Date.now(), ...(values.label ? { label: values.label } : {}) },
    );
    process.stdout.write(`${key}\n`);
    process.stderr.write(`Key created for tenant ${tenantId} and site(s) ${record.site_ids.join(', ')}. It is shown only this once.\n`);
    break;
  }
  case 'revoke': {
    if (!values.key) fail(`--key is required.\n\n${USAGE}`);
    const record = await store.findByHash(hashApiKey(values.key));
    if (!record) fail('No such key.');
    await store.save({ ...record, revoked_at: new Date().toISOString() });
    process.stderr.write('Key revoked (running functions forget it within a minute).\n');
    break;
  }
  default:
    fail(USAGE);
}
db.destroy();
