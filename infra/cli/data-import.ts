import { AppError } from '../../shared/platform/errors';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { importFile } from '../local/provision';
import { cliTableName, ensureLocalCredentials, fail } from './table';

/** `npm run data:import -- FILE`: validates the whole file, then loads it; a bad file writes nothing. */
const file = process.argv[2];
if (!file || process.argv.length > 3) fail('Usage: npm run data:import -- FILE.json');
ensureLocalCredentials();
const db = createDocumentClient();
try {
  const summary = await importFile(db, cliTableName(), file);
  process.stdout.write(`Imported ${summary.sites} site(s) and ${summary.items} item(s): ${summary.siteIds.join(', ')}\n`);
} catch (error) {
  if (error instanceof AppError) fail(`Nothing was imported. ${error.message}`);
  fail(`Nothing was imported. ${error instanceof Error ? error.message : String(error)}`);
} finally {
  db.destroy();
}
