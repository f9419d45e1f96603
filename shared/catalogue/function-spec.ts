import type { SecretId } from './secrets';
import type { TableGrant } from './table';

/**
 * What a function touches, from which its IAM grants are derived, its
 * queues left open: functions.ts narrows them to the service's
 * (`FunctionAccess`).
 */
export interface FunctionAccessSpec<Queue extends string = string> {
  /**
   * What it does in the table: each grant is a list of item actions on the
   * partition-key prefixes it owns (an IAM statement with a
   * `dynamodb:LeadingKeys` condition), or Query on an index's prefixes.
   * Empty: no table access, and no TABLE_NAME.
   */
  table: readonly TableGrant[];
  /** Queues it sends jobs to. */
  sendsTo: Queue[];
  /**
   * Also sends to the queue of every job type that starts a command: the
   * janitor, which queues their first jobs again, says so instead of naming
   * the features' queues, and the gathered catalogue (functions.ts) adds
   * them to `sendsTo`. @default false
   */
  sendsToEveryStartingQueue?: boolean;
  /** Dead-letter queues it sends poison jobs to (its own queue's). */
  sendsToDeadLetterOf: Queue[];
  /** Provider secrets it reads. */
  secrets: SecretId[];
}

/**
 * One Lambda function: its source module, sizing and access, its id and
 * queues left open. A feature declares its functions with this in its
 * catalogue.ts; functions.ts narrows them to the service's
 * (`FunctionDefinition`).
 */
export interface FunctionSpec<Id extends string = string, Queue extends string = string> {
  id: Id;
  /**
   * `api`: behind a route, authenticated by API key (401 first under /api);
   * `webhook`: behind a route outside /api, called by a provider and
   * authenticated by that provider's signature, never by a key;
   * `worker`: consumes a queue; `scheduled`: runs on a timer.
   */
  kind: 'api' | 'webhook' | 'worker' | 'scheduled';
  /** Module exporting `handler`, relative to the repository root. */
  entry: string;
  description: string;
  timeoutSeconds: number;
  /**
   * Its Lambda memory, and so its share of a vCPU. An API function's is the smallest size the sizing bench finds
   * supports it (`BENCH_PARTS=sizing npm run bench`; the figures and the rule are in docs/performance.md).
   */
  memoryMb: number;
  access: FunctionAccessSpec<Queue>;
  /** How often a `scheduled` function runs. */
  scheduleMinutes?: number;
  /**
   * How often a `scheduled` function runs under `npm start`, when not every
   * `scheduleMinutes`: a setting in whole seconds (read by the local runtime) and its default.
   * @default every scheduleMinutes
   */
  localSchedule?: { readonly setting: string; readonly defaultSeconds: number };
  /**
   * Plain (not secret) provider settings it reads, by their docs/configuration.md
   * names: each environment's value (infra/config.ts) is set on it, and
   * only on it. @default none
   */
  settings?: readonly string[];
  /**
   * Settings the deployment sets on it in every environment, with their
   * values: what the function must know in AWS that the local runtime,
   * which runs it differently, leaves at the setting's default. @default none
   */
  deployedSettings?: Readonly<Record<string, string>>;
  /** Files the function reads from disk at run time, copied into its bundle. @default none */
  bundledFiles?: readonly BundledFile[];
  /** Worker-thread scripts the function starts, each bundled on its own beside its index.mjs. @default none */
  workerBundles?: readonly WorkerBundle[];
  /**
   * Bundled with code splitting: what it reaches only through `import()` is
   * a chunk of its own beside index.mjs (`chunks/`), read and compiled on
   * first use rather than at every cold start (the AWS SDK's other
   * credential providers, a model or CRM client some jobs never call).
   * @default true (shared/catalogue/functions.ts)
   */
  lazyChunks?: boolean;
}

/** A data file a function reads at run time: copied into its Lambda bundle at the same relative path. */
export interface BundledFile {
  /** Path relative to the repository root (and to the bundle's root, `/var/task` in Lambda). */
  source: string;
  /** Setting through which the function is told the file's path in the bundle. */
  setting: string;
}

/**
 * A script a function runs in a worker thread. A Lambda bundle is one
 * file, and a worker thread cannot run code from inside it, so the script
 * is bundled on its own (same settings) and emitted beside index.mjs, where
 * the code that starts the worker looks for it (`new URL(bundle, import.meta.url)`).
 */
export interface WorkerBundle {
  /** The worker's entry, relative to the repository root. */
  source: string;
  /** File name of its bundle, beside index.mjs. */
  bundle: string;
}

/** The kinds of function that sit behind a route (api functions and webhooks): each is capped and throttled per route. */
export const ROUTED_KINDS: readonly FunctionSpec['kind'][] = ['api', 'webhook'];

/** True for a function behind a route (an api function or a webhook). */
export function isRouted(definition: Pick<FunctionSpec, 'kind'>): boolean {
  return ROUTED_KINDS.includes(definition.kind);
}
