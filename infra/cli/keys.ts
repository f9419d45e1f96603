import { dynamoApiKeyStore } from '../../shared/access/dynamo-api-keys';
import { dynamoTenantStore } from '../../shared/access/dynamo-tenants';
import { KEYS_USAGE, runKeysCommand } from './keys-command';
import { fail, withCliTable } from './table';

/** `npm run keys -- create | list | revoke`: see KEYS_USAGE (keys-command.ts). */
const args = process.argv.slice(2);
if (args.length === 0) fail(KEYS_USAGE);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(`${KEYS_USAGE}\n`);
  process.exit(0);
}
process.exitCode = await withCliTable((db, tableName) =>
  runKeysCommand(
    args,
    { keys: dynamoApiKeyStore(db, tableName), tenants: dynamoTenantStore(db, tableName), now: Date.now },
    { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) },
  ),
);
