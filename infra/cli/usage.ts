import { createDocumentClient } from '../../shared/platform/dynamodb';
import { dynamoUsageTotals } from '../../shared/usage/dynamo-usage-totals';
import { cliTableName, ensureLocalCredentials, fail } from './table';
import { runUsageCommand } from './usage-command';

/** `npm run usage -- --tenant T [--month YYYY-MM] [--group-by day|type|site] [--json]`: see USAGE_USAGE (usage-command.ts). */
ensureLocalCredentials();
let tableName: string;
try {
  tableName = cliTableName();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const db = createDocumentClient();
try {
  process.exitCode = await runUsageCommand(
    process.argv.slice(2),
    { totals: dynamoUsageTotals(db, tableName), now: Date.now },
    { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) },
  );
} finally {
  db.destroy();
}
