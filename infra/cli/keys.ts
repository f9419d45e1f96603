import { parseArgs } from 'node:util';
import { dynamoApiKeyStore, generateApiKey, hashApiKey, registerApiKey } from '../../shared/access/api-keys';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { cliTableName, ensureLocalCredentials, fail } from './table';

const USAGE = `Usage:
  npm run keys -- create --sites SITE_ID[,SITE_ID…] [--tenant TENANT] [--label TEXT]
  npm run keys -- revoke --key KEY

create prints a new API key once; only its SHA-256 is stored.`;

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
ensureLocalCredentials();
const db = createDocumentClient();
const store = dynamoApiKeyStore(db, cliTableName());

switch (positionals[0]) {
  case 'create': {
    const sites = (values.sites ?? '').split(',').map((id) => id.trim()).filter(Boolean);
    if (sites.length === 0) fail(`--sites is required.\n\n${USAGE}`);
    const key = generateApiKey();
    const tenantId = values.tenant ?? `tenant-${hashApiKey(key).slice(0, 8)}`;
    await registerApiKey(store, { key, tenantId, siteIds: sites, now: Date.now(), ...(values.label ? { label: values.label } : {}) });
    process.stdout.write(`${key}\n`);
    process.stderr.write(`Key created for tenant ${tenantId} and site(s) ${sites.join(', ')}. It is shown only this once.\n`);
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
