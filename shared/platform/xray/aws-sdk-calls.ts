import { flagsOf, type SubsegmentFields, type SubsegmentRecorder } from './subsegments';
import { formatTraceHeader } from './trace-header';

/** The parts of an AWS SDK v3 client this module uses. */
export interface InstrumentableClient {
  middlewareStack: {
    add(middleware: unknown, options: { name: string; step: 'build'; override?: boolean }): void;
  };
  config: { region?: string | (() => Promise<string>) };
}

interface CallContext {
  clientName?: string;
  commandName?: string;
}

interface CallArgs {
  input?: Readonly<Record<string, unknown>>;
  request?: { headers?: Record<string, string> };
}

interface CallMetadata {
  $metadata?: { httpStatusCode?: number; requestId?: string; attempts?: number };
}

const MIDDLEWARE_NAME = 'switchboardXRaySubsegment';
const THROTTLING_ERRORS = new Set([
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TransactionInProgressException',
  'SlowDown',
]);

async function regionOf(client: InstrumentableClient): Promise<string | undefined> {
  const region = client.config.region;
  try {
    return typeof region === 'function' ? await region() : region;
  } catch {
    return undefined;
  }
}

/** The tables a batch or transaction writes or reads (`RequestItems`' keys, each transact item's `TableName`), comma-separated. */
function tablesOfMany(input: CallArgs['input']): string | undefined {
  const names = new Set<string>();
  const requestItems = input?.RequestItems;
  if (requestItems && typeof requestItems === 'object') for (const name of Object.keys(requestItems)) names.add(name);
  const transactItems = input?.TransactItems;
  if (Array.isArray(transactItems)) {
    for (const item of transactItems as Record<string, { TableName?: unknown } | undefined>[]) {
      for (const operation of Object.values(item)) if (typeof operation?.TableName === 'string') names.add(operation.TableName);
    }
  }
  return names.size > 0 ? [...names].sort().join(',') : undefined;
}

/** `aws` and `http` of a finished call, and its flags (from the answer's status, or the error's). */
function callFields(
  operation: string,
  region: string | undefined,
  input: CallArgs['input'],
  outcome: CallMetadata | undefined,
  error?: unknown,
): SubsegmentFields {
  const metadata = outcome?.$metadata;
  const status = metadata?.httpStatusCode;
  const aws: Record<string, string | number> = { operation };
  if (region) aws.region = region;
  if (metadata?.requestId) aws.request_id = metadata.requestId;
  if (metadata?.attempts && metadata.attempts > 1) aws.retries = metadata.attempts - 1;
  if (typeof input?.TableName === 'string') aws.table_name = input.TableName;
  const tables = tablesOfMany(input);
  if (tables) aws.table_names = tables;
  if (typeof input?.QueueUrl === 'string') aws.queue_url = input.QueueUrl;
  const failure = error as { name?: string; $retryable?: { throttling?: boolean } } | undefined;
  const throttled = failure?.$retryable?.throttling === true || THROTTLING_ERRORS.has(failure?.name ?? '');
  // A failure with neither a status nor a flag is marked a fault when its subsegment closes with the error.
  return { aws, ...(status ? { http: { response: { status } } } : {}), ...flagsOf(status, throttled) };
}

/**
 * Adds a middleware to an AWS SDK v3 client that records each call (all its
 * attempts) as an `aws` subsegment named after the service (`DynamoDB`,
 * `SQS`), with its operation, region, request id, retries and table or
 * queue, and passes the subsegment on to the service in `X-Amzn-Trace-Id`.
 */
export function captureAwsClient<Client>(client: Client, recorder: SubsegmentRecorder): Client {
  const instrumentable = client as unknown as InstrumentableClient;
  if (!instrumentable?.middlewareStack?.add) return client;
  const middleware =
    (next: (args: CallArgs) => Promise<CallMetadata & { output?: CallMetadata }>, context: CallContext) => async (args: CallArgs) => {
      const service = (context.clientName ?? 'AWS').replace(/Client$/, '');
      const subsegment = recorder.open(service, { namespace: 'aws' });
      if (!subsegment) return next(args);
      const operation = (context.commandName ?? 'Unknown').replace(/Command$/, '');
      if (args.request?.headers) args.request.headers['X-Amzn-Trace-Id'] = formatTraceHeader(subsegment.trace, subsegment.id);
      try {
        const result = await recorder.within(subsegment, () => next(args), { awsCall: true });
        subsegment.close(callFields(operation, await regionOf(instrumentable), args.input, result.output));
        return result;
      } catch (error) {
        subsegment.close(callFields(operation, await regionOf(instrumentable), args.input, error as CallMetadata, error), error);
        throw error;
      }
    };
  instrumentable.middlewareStack.add(middleware, { name: MIDDLEWARE_NAME, step: 'build', override: true });
  return client;
}
