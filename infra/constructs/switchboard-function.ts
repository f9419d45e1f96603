import { existsSync } from 'node:fs';
import { isAbsolute, posix, relative, resolve } from 'node:path';
import { Duration, Names, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyDocument, PolicyStatement, Role, ServicePrincipal, type CfnRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing, type CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { TABLE, type TableGrant } from '../../shared/catalogue/table';
import { queueById, type JobQueueId, type QueueDefinition } from '../../shared/catalogue/job-types';
import type { BundledFile, FunctionDefinition, WorkerBundle } from '../../shared/catalogue/functions';
import type { SecretDefinition, SecretId } from '../../shared/catalogue/secrets';
import { BUNDLE_ALIASES, BUNDLE_TARGET, bundleDefines, MAIN_FIELDS, REQUIRE_BANNER } from './bundle-options';

/** The repository root, against which `FunctionDefinition.entry` paths resolve. */
export const REPOSITORY_ROOT = resolve(import.meta.dirname, '..', '..');

/** The Lambda runtime of every function (the code is tested on Node 20, built for 22). */
export const FUNCTION_RUNTIME = Runtime.NODEJS_22_X;

/**
 * The project's esbuild as the construct's bundling hooks run it: the one
 * NodejsFunction itself runs (through `npx --no-install`), called directly,
 * as npx's own start costs about 0.6 s of every call, several times a synth.
 */
const ESBUILD = 'node_modules/.bin/esbuild';

/** The entry NodejsFunction bundles for a function with `lazyChunks` (see the module). */
const SPLIT_ENTRY_PLACEHOLDER = resolve(import.meta.dirname, 'bundle-shims', 'split-entry-placeholder.ts');

/** Name under which Powertools reports logs, traces and metrics. */
export const SERVICE_NAME = 'switchboard';

/** What active tracing needs: X-Ray has no resource-level permissions, so these take Resource "*". */
export const TRACING_ACTIONS = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'] as const;

/**
 * The condition that limits a table grant to its partition-key prefixes.
 * `dynamodb:LeadingKeys` is the partition key of the item acted on (of the
 * index, for a Query on an index). `ForAllValues` is also true for a request
 * that carries no partition key at all, hence the `Null` check: such a
 * request is refused.
 */
export function leadingKeysCondition(keyPrefixes: readonly string[]): Record<string, Record<string, unknown>> {
  return {
    'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': keyPrefixes.map((prefix) => `${prefix}*`) },
    Null: { 'dynamodb:LeadingKeys': 'false' },
  };
}

/** Where Lambda unpacks a function's code: a bundled file's path at run time is this plus its path in the bundle. */
export const LAMBDA_TASK_ROOT = '/var/task';

/**
 * The commands that copy a function's `bundledFiles` into its bundle, each
 * at its path relative to the repository root (run after esbuild, by the
 * NodejsFunction's `afterBundling` hook).
 */
export function bundledFileCommands(files: readonly BundledFile[], inputDir: string, outputDir: string): string[] {
  return files.flatMap((file) => [
    `mkdir -p "${outputDir}/${posix.dirname(file.source)}"`,
    `cp "${inputDir}/${file.source}" "${outputDir}/${file.source}"`,
  ]);
}

/**
 * The commands that build a function's `workerBundles`: each entry bundled
 * on its own as the function is (ESM, node22, minified, with a source map
 * without sources when `sourceMaps`, the require banner) and emitted beside
 * its index.mjs (run after esbuild, by the NodejsFunction's `afterBundling`
 * hook, with the same esbuild).
 */
export function workerBundleCommands(bundles: readonly WorkerBundle[], inputDir: string, outputDir: string, sourceMaps = false): string[] {
  return bundles.map((worker) =>
    [
      `cd "${inputDir}" && ${ESBUILD} "${worker.source}"`,
      '--bundle --platform=node --format=esm',
      `--target=${BUNDLE_TARGET} --main-fields=${MAIN_FIELDS.join(',')}`,
      `--minify ${sourceMaps ? '--sourcemap --sources-content=false ' : ''}--log-level=warning`,
      `--banner:js="${REQUIRE_BANNER}"`,
      `--outfile="${outputDir}/${worker.bundle}"`,
    ].join(' '),
  );
}

/**
 * The command that rebuilds a function with `lazyChunks` into its bundle,
 * code split (run after esbuild, by the NodejsFunction's `afterBundling`
 * hook, with the same esbuild and settings): index.mjs replaced by an entry
 * that loads, at cold start, only what it reaches through static imports;
 * each `import()` target is a chunk under `chunks/`, read on first use.
 */
export function lazyChunksCommand(
  entry: string,
  define: Readonly<Record<string, string>>,
  inputDir: string,
  outputDir: string,
  sourceMaps = false,
): string {
  return [
    `cd "${inputDir}" && ${ESBUILD} "${entry}"`,
    '--bundle --splitting --platform=node --format=esm',
    `--target=${BUNDLE_TARGET} --main-fields=${MAIN_FIELDS.join(',')}`,
    `--minify ${sourceMaps ? '--sourcemap --sources-content=false ' : ''}--log-level=warning`,
    `--banner:js="${REQUIRE_BANNER}"`,
    ...Object.entries(define).map(([name, value]) => `'--define:${name}=${value}'`),
    ...Object.entries(BUNDLE_ALIASES).map(([name, path]) => `'--alias:${name}=${path}'`),
    `--outdir="${outputDir}" --entry-names=index --chunk-names=chunks/[name]-[hash] --out-extension:.js=.mjs`,
  ].join(' ');
}

/**
 * Why a function of each kind has no dead-letter queue of its own (which
 * Lambda fills only from asynchronous invocations).
 */
const NO_ASYNC_DEAD_LETTERS: Readonly<Record<FunctionDefinition['kind'], string>> = {
  api: "Invoked synchronously by API Gateway only: a failure is the caller's 5xx answer, never a queued event; the 5xx rate alarms.",
  webhook:
    'Invoked synchronously by API Gateway only (HTTP or WebSocket): the provider sees the failure and retries; alarms watch the errors.',
  worker: "Invoked synchronously by its SQS event source only: a failing job stays on its queue and goes to the queue's dead-letter queue.",
  scheduled:
    'Invoked only by its EventBridge schedule, whose target has a dead-letter queue; a run that fails raises the Errors alarm and the ' +
    'next run (minutes later) does the same idempotent sweep, so a stored copy of a failed trigger would have nothing to replay.',
};

/** The stateful resources a function may be bound to, by their definition ids. */
export interface FunctionResources {
  readonly table: ITable;
  readonly queues: ReadonlyMap<JobQueueId, { readonly queue: IQueue; readonly deadLetterQueue: IQueue }>;
  readonly secrets: ReadonlyMap<SecretId, { readonly definition: SecretDefinition; readonly secret: ISecret }>;
}

/** Props of {@link SwitchboardFunction}. */
export interface SwitchboardFunctionProps {
  /** The function's entry in `FUNCTIONS` (shared/catalogue/): entry, timeout, memory. */
  readonly definition: FunctionDefinition;
  /**
   * How long CloudWatch keeps the function's logs.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
  /**
   * Fate of the function's log group when the function is removed.
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;
  /**
   * Concurrent executions reserved for (and capping) this function.
   * @default - none: the account's unreserved pool
   */
  readonly reservedConcurrency?: number;
  /**
   * Environment variables on top of the ones the house sets (NODE_OPTIONS with `sourceMaps`,
   * POWERTOOLS_SERVICE_NAME) and the ones the bind helpers set.
   * @default {}
   */
  readonly environment?: Readonly<Record<string, string>>;
  /**
   * Ship each bundle's source map and run with `NODE_OPTIONS=--enable-source-maps`
   * (readable stack traces). Off, neither: Node parses a map at cold start
   * only under that flag, and the package Lambda fetches is smaller without it.
   * @default false
   */
  readonly sourceMaps?: boolean;
  /**
   * Root against which `definition.entry` resolves; its package-lock.json pins the bundle.
   * @default REPOSITORY_ROOT
   */
  readonly projectRoot?: string;
}

/**
 * The house Lambda function: Node.js 22 on arm64, an ESM bundle (minified,
 * source maps only with `sourceMaps`, the pinned AWS SDK bundled, the definition's
 * `bundledFiles` copied beside it with their settings naming their paths,
 * its `workerBundles` built beside it),
 * X-Ray active tracing, an
 * explicit log group with retention, and a role that starts EMPTY apart
 * from writing to that log group and sending traces. The tracing grant is
 * the role's one inline policy and the only place a `*` resource is
 * acknowledged to cdk-nag; every grant added later goes to the role's
 * default policy, where a `*` fails synth. Every other permission comes from a bind
 * helper that sets the environment variable and the exact IAM grant
 * together: {@link useTable}, {@link sendsTo}, {@link sendsToDeadLetterOf},
 * {@link readsSecret}, {@link consumes}.
 */
export class SwitchboardFunction extends Construct {
  readonly definition: FunctionDefinition;
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: SwitchboardFunctionProps) {
    super(scope, id);
    const { definition } = props;
    this.definition = definition;
    const projectRoot = props.projectRoot ?? REPOSITORY_ROOT;
    const bundledFiles = definition.bundledFiles ?? [];
    const workerBundles = definition.workerBundles ?? [];
    const sourceMaps = props.sourceMaps ?? false;

    this.logGroup = new LogGroup(this, 'LogGroup', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });

    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Switchboard ${definition.id}: only what FUNCTIONS.${definition.id}.access declares`,
      inlinePolicies: {
        Tracing: new PolicyDocument({
          statements: [new PolicyStatement({ effect: Effect.ALLOW, actions: [...TRACING_ACTIONS], resources: ['*'] })],
        }),
      },
    });
    const tracingReason =
      'Only the Tracing inline policy: X-Ray PutTraceSegments/PutTelemetryRecords have no resource-level permissions; AWS requires Resource "*".';
    Validations.of(this.role.node.defaultChild as CfnRole).acknowledge({ id: 'AwsSolutions-IAM5[Resource::*]', reason: tracingReason });
    Validations.of(this.role.node.defaultChild as CfnRole).acknowledge({ id: 'Serverless-LambdaStarPermissions', reason: tracingReason });
    this.role.addToPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [this.logGroup.logGroupArn],
      }),
    );

    this.function = new NodejsFunction(this, 'Function', {
      entry: nodejsFunctionEntry(this, projectRoot, definition),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: resolve(projectRoot, 'package-lock.json'),
      description: definition.description.slice(0, 256),
      runtime: FUNCTION_RUNTIME,
      architecture: Architecture.ARM_64,
      timeout: Duration.seconds(definition.timeoutSeconds),
      memorySize: definition.memoryMb,
      role: this.role,
      logGroup: this.logGroup,
      ...(props.reservedConcurrency === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrency }),
      environment: {
        ...(sourceMaps ? { NODE_OPTIONS: '--enable-source-maps' } : {}),
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        // Each bundled file's setting names where the function finds it.
        ...Object.fromEntries(bundledFiles.map((file) => [file.setting, posix.join(LAMBDA_TASK_ROOT, file.source)])),
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: BUNDLE_TARGET,
        mainFields: MAIN_FIELDS,
        minify: true,
        ...(sourceMaps ? { sourceMap: true, sourceMapMode: SourceMapMode.DEFAULT, sourcesContent: false } : { sourceMap: false }),
        // The pinned AWS SDK is bundled, not the one the runtime happens to ship: the code runs what the tests ran,
        // and a bundled, tree-shaken SDK starts faster than the runtime's copy (npm run bench, "Init").
        externalModules: [],
        banner: REQUIRE_BANNER,
        define: bundleDefines(definition.deployedSettings),
        ...(bundledFiles.length + workerBundles.length > 0 || definition.lazyChunks
          ? {
              commandHooks: {
                beforeBundling: () => [],
                beforeInstall: () => [],
                afterBundling: (inputDir: string, outputDir: string) => [
                  ...(definition.lazyChunks
                    ? [lazyChunksCommand(definition.entry, bundleDefines(definition.deployedSettings), inputDir, outputDir, sourceMaps)]
                    : []),
                  ...bundledFileCommands(bundledFiles, inputDir, outputDir),
                  ...workerBundleCommands(workerBundles, inputDir, outputDir, sourceMaps),
                ],
              },
            }
          : {}),
      },
    });

    // Active tracing set on the resource itself: the L2 `tracing` prop would add the X-Ray grant to the default policy.
    (this.function.node.defaultChild as CfnFunction).tracingConfig = { mode: Tracing.ACTIVE };
    const runtimeReason = 'nodejs22.x on purpose: the code is tested on Node 20 and 22 is the nearest supported Lambda runtime.';
    Validations.of(this.function).acknowledge({ id: 'AwsSolutions-L1', reason: runtimeReason });
    Validations.of(this.function).acknowledge({ id: 'Serverless-LambdaLatestVersion', reason: runtimeReason });
    Validations.of(this.function).acknowledge({ id: 'Serverless-LambdaDLQ', reason: NO_ASYNC_DEAD_LETTERS[definition.kind] });
  }

  /**
   * Binds everything `definition.access` declares, and nothing else: the
   * table grants with their key prefixes, the queues it sends to, the
   * dead-letter queues it parks poison jobs in, the secrets it reads.
   */
  bindDeclaredAccess(resources: FunctionResources): this {
    const { access } = this.definition;
    if (access.table.length > 0) this.useTable(resources.table, access.table);
    for (const queueId of access.sendsTo) this.sendsTo(queueId, lookup(resources.queues, queueId, 'queue').queue);
    for (const queueId of access.sendsToDeadLetterOf) {
      this.sendsToDeadLetterOf(queueId, lookup(resources.queues, queueId, 'queue').deadLetterQueue);
    }
    for (const secretId of access.secrets) {
      const secret = lookup(resources.secrets, secretId, 'secret');
      this.readsSecret(secret.definition, secret.secret);
    }
    return this;
  }

  /**
   * Sets TABLE_NAME and, per grant, one statement: its actions on the table
   * (or Query on its index), only for partition keys with its prefixes.
   * @throws Error for a grant without actions or prefixes, or an index grant for anything but Query
   */
  useTable(table: ITable, grants: readonly TableGrant[]): this {
    this.function.addEnvironment(TABLE.envVar, table.tableName);
    for (const grant of grants) {
      const where = `FUNCTIONS.${this.definition.id}.access.table`;
      if (grant.actions.length === 0 || grant.keyPrefixes.length === 0)
        throw new Error(`${where}: every grant needs actions and keyPrefixes`);
      const index = grant.index === undefined ? undefined : TABLE.indexes.find((candidate) => candidate.name === grant.index);
      if (grant.index !== undefined) {
        if (!index) throw new Error(`${where}: no index ${grant.index} in TABLE.indexes`);
        if (grant.actions.some((action) => action !== 'Query')) throw new Error(`${where}: an index grant allows Query only`);
      }
      const known: readonly string[] = index ? index.keyPrefixes : TABLE.keyPrefixes;
      const unknown = grant.keyPrefixes.filter((prefix) => !known.includes(prefix));
      if (unknown.length > 0) throw new Error(`${where}: unknown key prefix ${unknown.join(', ')}`);
      this.role.addToPolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: grant.actions.map((action) => `dynamodb:${action}`),
          resources: [index ? `${table.tableArn}/index/${index.name}` : table.tableArn],
          conditions: leadingKeysCondition(grant.keyPrefixes),
        }),
      );
    }
    return this;
  }

  /** Sets the queue's `urlEnvVar` and grants sqs:SendMessage on that queue only. */
  sendsTo(queueId: JobQueueId, queue: IQueue): this {
    this.function.addEnvironment(queueById(queueId).urlEnvVar, queue.queueUrl);
    this.allow(['sqs:SendMessage'], [queue.queueArn]);
    return this;
  }

  /** Sets the queue's `dlqUrlEnvVar` and grants sqs:SendMessage on its dead-letter queue only. */
  sendsToDeadLetterOf(queueId: JobQueueId, deadLetterQueue: IQueue): this {
    this.function.addEnvironment(queueById(queueId).dlqUrlEnvVar, deadLetterQueue.queueUrl);
    this.allow(['sqs:SendMessage'], [deadLetterQueue.queueArn]);
    return this;
  }

  /** Sets the secret's `arnEnvVar` and grants secretsmanager:GetSecretValue on that secret only. */
  readsSecret(definition: SecretDefinition, secret: ISecret): this {
    this.function.addEnvironment(definition.arnEnvVar, secret.secretArn);
    this.allow(['secretsmanager:GetSecretValue'], [secret.secretArn]);
    return this;
  }

  /**
   * Consumes `queue` with partial batch failures reported, the batch size,
   * batching window and maximum concurrency of its definition. The event
   * source grants the receive/delete/visibility actions on that queue only.
   */
  consumes(definition: QueueDefinition, queue: IQueue): this {
    const source = new SqsEventSource(queue, {
      batchSize: definition.batchSize,
      maxBatchingWindow: Duration.seconds(definition.maxBatchingWindowSeconds),
      maxConcurrency: definition.maxConcurrency,
      reportBatchItemFailures: true,
    });
    this.function.addEventSource(source);
    Validations.of(this.function.node.findChild(`SqsEventSource:${Names.nodeUniqueId(queue.node)}`)).acknowledge({
      id: 'Serverless-LambdaEventSourceMappingDestination',
      reason:
        "An SQS event source takes no on-failure destination (that is for streams and Kafka): the queue's redrive policy moves a job " +
        `to its dead-letter queue after ${definition.maxReceiveCount} deliveries, and the worker parks poison jobs there itself.`,
    });
    return this;
  }

  private allow(actions: readonly string[], resources: string[]): void {
    this.role.addToPolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: [...actions], resources }));
  }
}

/**
 * The absolute entry NodejsFunction bundles. For a function with
 * `lazyChunks`, a placeholder: the afterBundling hook builds the real entry
 * code split (lazyChunksCommand), so NodejsFunction's own esbuild run of it
 * would be thrown away. When the stack is not being bundled (unit tests
 * with `aws:cdk:bundling-stacks: []`, or `cdk deploy` of another stack) a
 * missing entry does not matter: the code asset is a placeholder, so this
 * module stands in to satisfy NodejsFunction's existence check. When
 * bundling, a missing entry fails synth, as NodejsFunction's check would.
 */
export function nodejsFunctionEntry(scope: Construct, projectRoot: string, definition: FunctionDefinition): string {
  const entry = resolve(projectRoot, definition.entry);
  if (!existsSync(entry)) {
    if (Stack.of(scope).bundlingRequired) throw new Error(`Cannot find entry file at ${entry}`);
    return import.meta.filename;
  }
  // NodejsFunction refuses an entry outside its project root (another root than this repository's keeps the real entry).
  const placeholder = relative(projectRoot, SPLIT_ENTRY_PLACEHOLDER);
  const placeholderInRoot = !placeholder.startsWith('..') && !isAbsolute(placeholder);
  return definition.lazyChunks && placeholderInRoot ? SPLIT_ENTRY_PLACEHOLDER : entry;
}

function lookup<K extends string, V>(map: ReadonlyMap<K, V>, key: K, kind: string): V {
  const found = map.get(key);
  if (found === undefined)
    throw new Error(`No ${kind} "${key}" was created; is it missing from the service catalogue (shared/catalogue/)?`);
  return found;
}
