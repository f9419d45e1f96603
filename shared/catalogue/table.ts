/** The single DynamoDB table: every entity lives under `pk`/`sk`. */
export const TABLE = {
  id: 'Table',
  /** Environment variable through which functions learn the table's name. */
  envVar: 'TABLE_NAME',
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds after which DynamoDB may delete the item (idempotency records, caches). */
  ttlAttribute: 'expires_at',
  indexes: [
    /**
     * Overloaded: follow-ups by due time (`FOLLOWUP#scheduled`, for schedulers),
     * and commands still in progress by creation time (`CMD#IN_PROGRESS#<shard>`, for the janitor).
     */
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  ],
} as const;

/** Name of one of the table's global secondary indexes. */
export type TableIndexName = (typeof TABLE.indexes)[number]['name'];
