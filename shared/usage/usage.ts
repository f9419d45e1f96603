/**
 * What a command used, as counters: model tokens per model, search requests
 * per provider and cache hits, call seconds, webhook deliveries, CRM
 * writes. Kept flat (one number per counter name) so each counter is one
 * DynamoDB attribute that `ADD` increments, on the command's usage item and
 * on the tenant's daily and monthly totals alike.
 */

/** Counter name → amount. Names are built by the functions below, never by hand. */
export type UsageCounters = Readonly<Record<string, number>>;

/** No usage. */
export const NO_USAGE: UsageCounters = Object.freeze({});

const TOKENS_IN = 'tokens_in#';
const TOKENS_OUT = 'tokens_out#';
const SEARCH_REQUESTS = 'search_requests#';
const SEARCH_CACHE_HITS = 'search_cache_hits';
const CALL_SECONDS = 'call_seconds';
const WEBHOOK_DELIVERIES = 'webhook_deliveries';
const CRM_WRITES = 'crm_writes';
/** Commands that ended (counted on the tenant's totals, at their terminal write). */
const COMMANDS = 'commands';

/** The label of tokens the offline writer "spent": always zero, so its answers show in usage without costing anything. */
export const OFFLINE_MODEL = 'offline';

/** Model tokens, from the provider's own usage numbers (`prompt_tokens`, `completion_tokens`). */
export function modelTokens(model: string, input: number, output: number): UsageCounters {
  return { [`${TOKENS_IN}${model}`]: whole(input), [`${TOKENS_OUT}${model}`]: whole(output) };
}

/** Requests sent to a search provider (a Google page of 10 is one). */
export function searchRequests(provider: string, requests: number): UsageCounters {
  return { [`${SEARCH_REQUESTS}${provider}`]: whole(requests) };
}

/** Searches answered from the cache (no provider request). */
export function searchCacheHits(hits: number): UsageCounters {
  return { [SEARCH_CACHE_HITS]: whole(hits) };
}

/** Seconds of a call, as Twilio's final status callback reports them (`CallDuration`). */
export function callSeconds(seconds: number): UsageCounters {
  return { [CALL_SECONDS]: whole(seconds) };
}

/** Webhook deliveries an endpoint accepted. */
export function webhookDeliveries(count: number): UsageCounters {
  return { [WEBHOOK_DELIVERIES]: whole(count) };
}

/** Writes a CRM accepted (a note, a contact's property). */
export function crmWrites(count: number): UsageCounters {
  return { [CRM_WRITES]: whole(count) };
}

/** One command ended (its tenant's totals count commands; a command's own usage does not). */
export const ONE_COMMAND: UsageCounters = Object.freeze({ [COMMANDS]: 1 });

function whole(amount: number): number {
  return Number.isFinite(amount) && amount > 0 ? Math.round(amount) : 0;
}

/** The sum of counters. */
export function addUsage(...parts: readonly UsageCounters[]): UsageCounters {
  const sum: Record<string, number> = {};
  for (const part of parts) for (const [name, amount] of Object.entries(part)) sum[name] = (sum[name] ?? 0) + amount;
  return sum;
}

/** True when nothing is counted (an offline model's zero tokens are something: they label the answer). */
export function isEmptyUsage(usage: UsageCounters): boolean {
  return Object.keys(usage).length === 0;
}

/** True for an attribute name that is a usage counter (what a stored item's other attributes are not). */
export function isUsageCounter(name: string): boolean {
  return (
    name.startsWith(TOKENS_IN) ||
    name.startsWith(TOKENS_OUT) ||
    name.startsWith(SEARCH_REQUESTS) ||
    [SEARCH_CACHE_HITS, CALL_SECONDS, WEBHOOK_DELIVERIES, CRM_WRITES, COMMANDS].includes(name)
  );
}

/** The counters of a stored item (its other attributes left out). */
export function countersOf(item: Readonly<Record<string, unknown>>): UsageCounters {
  const counters: Record<string, number> = {};
  for (const [name, value] of Object.entries(item)) if (isUsageCounter(name) && typeof value === 'number') counters[name] = value;
  return counters;
}

/** Usage as the API shows it (`usage` of a command, each total of `GET /api/usage`). */
export interface UsageView {
  model_tokens: { input: number; output: number; by_model: Record<string, { input: number; output: number }> };
  searches: { requests: number; cache_hits: number; by_provider: Record<string, number> };
  call_seconds: number;
  webhook_deliveries: number;
  crm_writes: number;
}

/** Counters as the API shows them; with `commands`, the count of commands that ended too. */
export function usageView(counters: UsageCounters): UsageView {
  const view: UsageView = {
    model_tokens: { input: 0, output: 0, by_model: {} },
    searches: { requests: 0, cache_hits: counters[SEARCH_CACHE_HITS] ?? 0, by_provider: {} },
    call_seconds: counters[CALL_SECONDS] ?? 0,
    webhook_deliveries: counters[WEBHOOK_DELIVERIES] ?? 0,
    crm_writes: counters[CRM_WRITES] ?? 0,
  };
  for (const [name, amount] of Object.entries(counters).sort(([a], [b]) => a.localeCompare(b))) {
    if (name.startsWith(TOKENS_IN) || name.startsWith(TOKENS_OUT)) {
      const input = name.startsWith(TOKENS_IN);
      const model = name.slice((input ? TOKENS_IN : TOKENS_OUT).length);
      const entry = (view.model_tokens.by_model[model] ??= { input: 0, output: 0 });
      entry[input ? 'input' : 'output'] += amount;
      view.model_tokens[input ? 'input' : 'output'] += amount;
    } else if (name.startsWith(SEARCH_REQUESTS)) {
      const provider = name.slice(SEARCH_REQUESTS.length);
      view.searches.by_provider[provider] = (view.searches.by_provider[provider] ?? 0) + amount;
      view.searches.requests += amount;
    }
  }
  return view;
}

/** Commands that ended, from counters. */
export function commandsCounted(counters: UsageCounters): number {
  return counters[COMMANDS] ?? 0;
}

/** Model tokens in and out, all models together (what a monthly token cap counts). */
export function totalTokens(counters: UsageCounters): number {
  const view = usageView(counters);
  return view.model_tokens.input + view.model_tokens.output;
}

/** Search requests, all providers together (what a monthly search cap counts; cache hits cost nothing). */
export function totalSearchRequests(counters: UsageCounters): number {
  return usageView(counters).searches.requests;
}
