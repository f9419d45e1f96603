import { parseArgs } from 'node:util';
import { AppError } from '../../shared/platform/errors';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { importFile } from '../local/provision';
import { cliTableName, ensureLocalCredentials, fail, tenantOption } from './table';

/**
 * `npm run data:import -- FILE [--tenant TENANT]`: validates the whole file,
 * then loads it; a bad file writes nothing. With --tenant, the file's sites
 * are granted to that tenant (created if new).
 */
const USAGE = 'Usage: npm run data:import -- FILE.json [--tenant TENANT]';
const { positionals, values } = parseArgs({ allowPositionals: true, options: { tenant: { type: 'string' } } });
const file = positionals[0];
if (!file || positionals.length > 1) fail(USAGE);
const tenantId = tenantOption(values.tenant);
ensureLocalCredentials();
const db = createDocumentClient();
try {
  const summary = await importFile(db, cliTableName(), file, tenantId === undefined ? {} : { tenantId });
  const granted = summary.tenantId ? ` (granted to tenant ${summary.tenantId})` : '';
  process.stdout.write(`Imported ${summary.sites} site(s) and ${summary.items} item(s): ${summary.siteIds.join(', ')}${granted}\n`);
} catch (error) {
  if (error instanceof AppError) fail(`Nothing was imported. ${error.message}`);
  fail(`Nothing was imported. ${error instanceof Error ? error.message : String(error)}`);
} finally {
  db.destroy();
}
