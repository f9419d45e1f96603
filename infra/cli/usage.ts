import { dynamoUsageTotals } from '../../shared/usage/dynamo-usage-totals';
import { withCliTable } from './table';
import { runUsageCommand } from './usage-command';

/** `npm run usage -- --tenant T [--month YYYY-MM] [--group-by day|type|site] [--json]`: see USAGE_USAGE (usage-command.ts). */
process.exitCode = await withCliTable((db, tableName) =>
  runUsageCommand(
    process.argv.slice(2),
    { totals: dynamoUsageTotals(db, tableName), now: Date.now },
    { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) },
  ),
);
