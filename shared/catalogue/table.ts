/** A follow-up step whole, as shared/lead-follow-up/sequences/step.ts reads it (`storedStepSchema`): what both step listings project. */
const STEP_ATTRIBUTES = [
  'id',
  'type',
  'subject',
  'content',
  'scheduled_for',
  'status',
  'site_id',
  'lead_id',
  'user_id',
  'metadata',
  'tenant_id',
  'command_id',
  'created_at',
  'updated_at',
  'due_at',
  'announced_at',
  'sent_at',
  'skipped_at',
  'cancelled_at',
  'status_reason',
  'edited_at',
  'adapted_by',
  'previous_scheduled_for',
  'expires_at',
] as const;

/** The single DynamoDB table: every entity lives under `pk`/`sk`. */
export const TABLE = {
  id: 'Table',
  /** Environment variable through which functions learn the table's name. */
  envVar: 'TABLE_NAME',
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds after which DynamoDB may delete the item (idempotency records, caches). */
  ttlAttribute: 'expires_at',
  /**
   * How each kind of item's partition key starts. Functions are granted
   * table actions per prefix (`dynamodb:LeadingKeys`), so a new kind of item
   * gets its own prefix here.
   */
  keyPrefixes: [
    /** `APIKEY#<sha256>`: an API key's record (shared/access/api-keys.ts). */
    'APIKEY#',
    /** `TENANT#<id>`: the sites a tenant may act on (shared/access/tenants.ts). */
    'TENANT#',
    /** `SITE#<id>`: a site and, under the same key, its leads, agents, users, ... (shared/sites/dynamo-directory.ts). */
    'SITE#',
    /** `CMD#<id>`: a command (shared/commands/store.ts). */
    'CMD#',
    /** `IDEM#<sha256>`: an Idempotency-Key's claim (shared/commands/idempotency.ts). */
    'IDEM#',
    /**
     * `FOLLOWUP#<id>`: a follow-up of a sequence (shared/lead-follow-up/follow-up-store.ts), and
     * `FOLLOWUP#EVENT#<id>`: a lead event that adapted sequences (shared/lead-follow-up/sequences/event-records.ts).
     */
    'FOLLOWUP#',
    /**
     * `QUOTA#<provider>#<day>`: a search provider's daily request counter, e.g. `QUOTA#google#2026-11-23` (US Pacific day;
     * shared/providers/search/quota.ts).
     */
    'QUOTA#',
    /** `SEARCH#<sha256>`: search results cached for SEARCH_CACHE_TTL, keyed by the normalized query (shared/providers/search/cache.ts). */
    'SEARCH#',
    /**
     * `CONV#<site id>`: a site's conversations (shared/sites/conversations.ts), apart from `SITE#`
     * so a function that starts conversations may write them without being able to write sites.
     */
    'CONV#',
    /**
     * `LEADHISTORY#<site id>#<lead id>`: what each tenant reported about a lead, one item per event
     * (`sk` `<tenant id>#<occurred at>#<event id>`), apart from `SITE#` so the route that records
     * events writes histories only, never sites or leads (shared/lead-follow-up/history.ts).
     */
    'LEADHISTORY#',
    /**
     * `SITEWORK#<tenant id>#<site id>`: the tasks and requirements a tenant's calls made on a site, from their meeting
     * summaries (`sk` `TASK#<command id>#<nn>` or `REQ#<command id>#<nn>`), apart from `SITE#` (shared by the tenants covering
     * the site) so each tenant's reach only its own commands (shared/sites/dynamo-site-work.ts).
     */
    'SITEWORK#',
    /** `RELAY#<connection id>`: one ConversationRelay socket's session: its command and call (shared/voice-assistant/sessions.ts). */
    'RELAY#',
    /**
     * `WEBHOOK#<tenant id>`: the tenant's webhook endpoints, one item per slot (`sk` `SLOT#<n>`), so a
     * conditional put per slot bounds their number (shared/webhooks/endpoint-store.ts).
     */
    'WEBHOOK#',
    /** `EVENT#<sha256>`: an event for the tenant's webhooks, keyed by its publisher's idempotency key (shared/webhooks/event-store.ts). */
    'EVENT#',
    /** `DELIVERY#<endpoint id>`: an endpoint's deliveries, `sk` the event id (time-ordered) (shared/webhooks/delivery-store.ts). */
    'DELIVERY#',
    /**
     * `CRM#<tenant id>`: the tenant's CRM connections, one item per provider (`sk` `CONNECTION#hubspot`), their secrets sealed
     * with the tenant's key (shared/crm/dynamo-connection-store.ts).
     */
    'CRM#',
    /**
     * `CRMPORTAL#<provider>#<portal id>`: the tenants connected to a CRM portal, one item each (`sk` the tenant id), written with
     * the connection, so a provider's webhook call, which names its portal, finds its tenants with one Query.
     */
    'CRMPORTAL#',
    /**
     * `CRMLINK#<tenant id>#<provider>#…`: which lead each of a tenant's CRM contacts became, both ways: `…#CONTACT#<contact id>`
     * (`sk` `SITE#<site id>`) and `…#SITE#<site id>` (`sk` `LEAD#<lead id>`), the tenant's own (shared/crm/dynamo-lead-links.ts).
     */
    'CRMLINK#',
    /**
     * `CRMSYNC#<tenant id>#<site id>#<lead id>`: a lead's writes back to its tenant's CRM, one delivery record each (`sk`
     * `<source>#<source id>#<kind>`), claimed before the write and completed after (shared/crm/sync/dynamo-delivery-store.ts).
     */
    'CRMSYNC#',
    /**
     * `RATE#<tenant id>`: the tenant's request-rate bucket (`sk` `BUCKET`), one conditional write per request of a tenant with
     * a request rate (shared/access/limits/dynamo-request-rate.ts).
     */
    'RATE#',
    /**
     * `USAGE#<tenant id>`: the tenant's usage totals, per day, command type and site (`sk` `DAY#<day>#<type>#<site>#<shard>`) and
     * per month (`MONTH#<month>#<shard>`), and its commands in progress (`IN_PROGRESS`), added to with the writes that make
     * usage final (shared/usage/dynamo-ledger.ts). A command's own usage is `CMD#<id>` / `USAGE`.
     */
    'USAGE#',
  ],
  indexes: [
    /**
     * Overloaded: follow-ups by due time (`FOLLOWUP#scheduled`, for the dispatcher), follow-ups
     * made due whose `follow_up.due` is not yet published (`FOLLOWUP#announcing`, by due time, for the
     * dispatcher's retry), commands still in progress by creation time (`CMD#IN_PROGRESS#<shard>`, for the janitor),
     * and webhook events recorded but not yet handed to delivery (`EVENT#PENDING#<shard>`, by recording time, for the
     * janitor's sweep of the outbox).
     */
    {
      name: 'gsi1',
      partitionKey: 'gsi1pk',
      sortKey: 'gsi1sk',
      /** How the index's partition keys start (granted per prefix, like the table's). */
      keyPrefixes: ['CMD#IN_PROGRESS#', 'FOLLOWUP#scheduled', 'FOLLOWUP#announcing', 'EVENT#PENDING#'],
      /**
       * The attributes copied into the index besides the keys: exactly what
       * is read through it, so the large ones (a command's request, result
       * and context) are neither written twice nor paid for twice.
       */
      projection: {
        /** What the janitor (`listInProgress`, shared/commands/janitor.ts) reads of a command in progress. */
        commandsInProgress: ['id', 'type', 'status', 'tenant_id', 'parent_id', 'attempts', 'created_at', 'updated_at', 'requeued_at'],
        /** The outbox sweep reads only the pending event's key (always projected), then the event itself. */
        eventsPending: [],
        /** A due follow-up as the sales phase saved it (`listDueFollowUps`); the dispatcher reads only its id. */
        followUpsDue: STEP_ATTRIBUTES.slice(0, STEP_ATTRIBUTES.indexOf('created_at') + 1),
      },
    },
    /**
     * Overloaded like gsi1: a lead's follow-ups in schedule order, per tenant
     * (`FOLLOWUP#LEAD#<site id>#<lead id>#<tenant id>`, sort key `<scheduled_for>#<id>`), for
     * `GET /api/leads/{leadId}/follow-ups` and the lead events that adapt a sequence.
     */
    {
      name: 'gsi2',
      partitionKey: 'gsi2pk',
      sortKey: 'gsi2sk',
      keyPrefixes: ['FOLLOWUP#LEAD#'],
      projection: {
        /** A step whole. */
        leadFollowUps: STEP_ATTRIBUTES,
      },
    },
    /**
     * Overloaded listings, newest or earliest first: a tenant's commands by creation (`CMD#TENANT#<tenant id>`, sort key
     * `<created_at>#<id>`, for `GET /api/commands`; child phases are never in it), and a site's follow-ups per tenant in
     * schedule order (`FOLLOWUP#SITE#<site id>#<tenant id>`, sort key `<scheduled_for>#<id>`, for `GET /api/follow-ups`).
     */
    {
      name: 'gsi3',
      partitionKey: 'gsi3pk',
      sortKey: 'gsi3sk',
      keyPrefixes: ['CMD#TENANT#', 'FOLLOWUP#SITE#'],
      projection: {
        /**
         * A command's short form (shared/commands/listing.ts): its error's code alone (`error_code`, never the error with its
         * details), and its expiry to leave out what its retention ended.
         */
        tenantCommands: ['id', 'type', 'status', 'site_id', 'created_at', 'updated_at', 'finished_at', 'error_code', 'expires_at'],
        /** A step whole, as for a lead's (gsi2). */
        siteFollowUps: STEP_ATTRIBUTES,
      },
    },
  ],
} as const;

/** Name of one of the table's global secondary indexes. */
export type TableIndexName = (typeof TABLE.indexes)[number]['name'];

/** How a table item's partition key starts. */
export type TableKeyPrefix = (typeof TABLE.keyPrefixes)[number];

/** How an index entry's partition key starts. */
export type IndexKeyPrefix = (typeof TABLE.indexes)[number]['keyPrefixes'][number];

/** The non-key attributes projected into an index: every reader's attributes, once each. */
export function projectedAttributes(index: (typeof TABLE.indexes)[number]): string[] {
  return [...new Set(Object.values(index.projection).flat())];
}

/**
 * The item actions a function may be granted on the table (no wildcards;
 * never Scan, which no `dynamodb:LeadingKeys` condition can limit).
 */
export type TableAction =
  'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem' | 'ConditionCheckItem';

/**
 * One grant on the table: `actions` on the items whose partition key starts
 * with one of `keyPrefixes`. With `index`, Query on that index instead,
 * limited by the index's own partition key.
 */
export type TableGrant =
  | { readonly actions: readonly TableAction[]; readonly keyPrefixes: readonly TableKeyPrefix[]; readonly index?: undefined }
  | { readonly index: TableIndexName; readonly actions: readonly ['Query']; readonly keyPrefixes: readonly IndexKeyPrefix[] };
