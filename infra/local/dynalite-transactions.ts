import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * TransactWriteItems for the embedded DynamoDB (dynalite has none).
 *
 * The wrapped server takes every request first. Ordinary operations run
 * concurrently, as before; a transaction waits until none is in flight
 * (holding back those that arrive meanwhile, so it cannot starve) and holds
 * every later request back while it runs, so nothing observes it half done.
 * It reads each item's prior image, writes them to a journal table, then
 * applies its items one by one through dynalite itself (each with its own
 * condition, so conditions are evaluated by dynalite's own expression
 * engine); when any item is refused, the ones applied are put back as they
 * were and the caller gets DynamoDB's `TransactionCanceledException` with
 * one cancellation reason per item, in order. A process killed half way
 * (kill -9 with DATA_DIR) leaves its journal behind: at the next start
 * {@link recoverTransactions} puts the items back as they were, which is
 * right, since no caller was ever told the transaction succeeded.
 *
 * Without a journal (an in-memory table, which a killed process loses
 * whole) the prior images come back from the writes themselves
 * (ReturnValues ALL_OLD) instead of being read and journaled first.
 *
 * What the real service does and this does not: the ClientRequestToken's
 * ten-minute idempotency window, and the doubled write-capacity accounting.
 */
export function addTransactions(server: Server, keyAttributes: readonly string[], options: { journal?: boolean } = {}): DirectDynamo {
  const journaled = options.journal ?? true;
  const [dynalite] = server.listeners('request') as Handler[];
  if (!dynalite) throw new Error('The embedded DynamoDB has no request handler to wrap');
  server.removeAllListeners('request');
  const direct = directCaller(dynalite);
  let journal: Promise<void> | undefined;
  const journalReady = () => (journal ??= ensureJournal(direct));

  let inFlight = 0;
  let exclusive = false;
  let wanting = 0;
  const held: (() => void)[] = [];
  const turn: (() => void)[] = [];
  const wake = () => {
    if (exclusive) return;
    if (wanting > 0) {
      if (inFlight === 0) turn.shift()?.();
      return;
    }
    while (held.length > 0) held.shift()!();
  };
  const passThrough: Handler = (request, response) => {
    inFlight += 1;
    response.once('close', () => {
      inFlight -= 1;
      wake();
    });
    dynalite(request, response);
  };
  const runExclusive = async <T>(work: () => Promise<T>): Promise<T> => {
    wanting += 1;
    if (exclusive || inFlight > 0 || wanting > 1) await new Promise<void>((resolve) => turn.push(resolve));
    wanting -= 1;
    exclusive = true;
    try {
      return await work();
    } finally {
      exclusive = false;
      wake();
    }
  };

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (String(request.headers['x-amz-target'] ?? '').endsWith('.TransactWriteItems')) {
      void readBody(request)
        .then(async (body) => {
          if (journaled) await journalReady();
          return runExclusive(() => transactWrite(direct, body, keyAttributes, journaled));
        })
        .then(({ status, body }) => send(response, status, body))
        .catch((error: unknown) => send(response, 500, { __type: `${ERROR_PREFIX}InternalServerError`, message: String(error) }));
      return;
    }
    // An UpdateItem asking for the item it failed on (ReturnValuesOnConditionCheckFailure), which dynalite ignores.
    const handle = String(request.headers['x-amz-target'] ?? '').endsWith('.UpdateItem')
      ? () => void updateReturningOld(request, response)
      : () => passThrough(request, response);
    if (exclusive || wanting > 0) held.push(handle);
    else handle();
  });

  /**
   * An UpdateItem, through dynalite; when its condition fails and it asked for
   * `ALL_OLD`, the answer carries the item as it was, as DynamoDB's does (read
   * right after the refusal: nothing runs between the two here but other
   * single-item calls).
   */
  const updateReturningOld = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    inFlight += 1;
    try {
      const raw = JSON.parse(await readBody(request)) as {
        ReturnValuesOnConditionCheckFailure?: string;
        TableName?: string;
        Key?: unknown;
      };
      const { ReturnValuesOnConditionCheckFailure: returnOld, ...update } = raw;
      const answer = await direct('UpdateItem', update);
      if (returnOld === 'ALL_OLD' && String(answer.body.__type ?? '').endsWith('#ConditionalCheckFailedException')) {
        const { body } = await direct('GetItem', { TableName: raw.TableName, Key: raw.Key, ConsistentRead: true });
        if (body.Item) answer.body.Item = body.Item;
      }
      send(response, answer.status, answer.body);
    } catch (error) {
      send(response, 500, { __type: `${ERROR_PREFIX}InternalServerError`, message: String(error) });
    } finally {
      inFlight -= 1;
      wake();
    }
  };
  return direct;
}

/** The journal of transactions being applied: one item per transaction, deleted once it is applied or rolled back. */
export const TRANSACTION_JOURNAL_TABLE = 'switchboard-local-transactions';

/** Calls the embedded DynamoDB in-process (no socket), with a JSON-protocol operation and body. */
export type DirectDynamo = (operation: string, body: unknown) => Promise<{ status: number; body: Record<string, unknown> }>;

/**
 * Rolls back what a process killed in the middle of a transaction left
 * applied (its journal survived in DATA_DIR), then clears the journal.
 * Returns how many transactions were rolled back.
 */
export async function recoverTransactions(direct: DirectDynamo): Promise<number> {
  await ensureJournal(direct);
  const { body } = await direct('Scan', { TableName: TRANSACTION_JOURNAL_TABLE });
  const entries = (body.Items ?? []) as { id: { S: string }; priors: { S: string } }[];
  for (const entry of entries) {
    await restore(direct, JSON.parse(entry.priors.S) as Prior[]);
    await direct('DeleteItem', { TableName: TRANSACTION_JOURNAL_TABLE, Key: { id: entry.id } });
  }
  return entries.length;
}

/** Creates the journal table unless it exists (kept with the data under DATA_DIR). */
async function ensureJournal(direct: DirectDynamo): Promise<void> {
  const described = await direct('DescribeTable', { TableName: TRANSACTION_JOURNAL_TABLE });
  if (described.status === 200) return;
  const created = await direct('CreateTable', {
    TableName: TRANSACTION_JOURNAL_TABLE,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
  });
  if (created.status !== 200 && !String(created.body.__type).endsWith('#ResourceInUseException')) {
    throw new Error(
      `The embedded DynamoDB could not create the transaction journal: ${String(created.body.message ?? created.body.__type)}`,
    );
  }
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
type AttributeMap = Record<string, unknown>;
interface ConditionParts {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: AttributeMap;
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}
type WireItem = {
  Put?: { TableName: string; Item: AttributeMap } & ConditionParts;
  Update?: { TableName: string; Key: AttributeMap; UpdateExpression: string } & ConditionParts;
  Delete?: { TableName: string; Key: AttributeMap } & ConditionParts;
  ConditionCheck?: { TableName: string; Key: AttributeMap; ConditionExpression: string } & ConditionParts;
};
interface CancellationReason {
  Code: string;
  Message?: string;
  Item?: AttributeMap;
}
interface Prior {
  table: string;
  key: AttributeMap;
  prior?: AttributeMap;
  /** A condition check (written back as it was, or as a bare key when absent). */
  check?: boolean;
}

const MAX_TRANSACTION_ITEMS = 100;
const ERROR_PREFIX = 'com.amazonaws.dynamodb.v20120810#';

async function transactWrite(
  call: DirectDynamo,
  raw: string,
  keyAttributes: readonly string[],
  journal: boolean,
): Promise<TransactionAnswer> {
  const items = (JSON.parse(raw) as { TransactItems?: WireItem[] }).TransactItems;
  const invalid = (message: string) => ({ status: 400, body: { __type: `${ERROR_PREFIX}ValidationException`, message } });
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_TRANSACTION_ITEMS) {
    return invalid(
      `1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length between 1 and ${MAX_TRANSACTION_ITEMS}`,
    );
  }
  const targets = items.map((item) => targetOf(item, keyAttributes));
  if (targets.some((target) => !target))
    return invalid('Each transaction item must name exactly one of Put, Update, Delete or ConditionCheck');
  const seen = new Set<string>();
  for (const target of targets) {
    const id = `${target!.table}|${JSON.stringify(target!.key)}`;
    if (seen.has(id)) return invalid('Transaction request cannot include multiple operations on one item');
    seen.add(id);
  }

  return journal ? journaledWrite(call, items, targets as Target[]) : directWrite(call, items, targets as Target[]);
}

/**
 * Applies a transaction's items after journaling their prior images, so a
 * process killed half way can be rolled back at the next start (DATA_DIR).
 */
async function journaledWrite(call: DirectDynamo, items: WireItem[], targets: Target[]): Promise<TransactionAnswer> {
  const priors: Prior[] = [];
  for (const target of targets) {
    const { body } = await call('GetItem', { TableName: target.table, Key: target.key, ConsistentRead: true });
    priors.push({ ...target, ...(body.Item ? { prior: body.Item as AttributeMap } : {}) });
  }
  items.forEach((item, index) => {
    if (item.ConditionCheck) priors[index]!.check = true;
  });
  const journalId = { S: crypto.randomUUID() };
  await call('PutItem', { TableName: TRANSACTION_JOURNAL_TABLE, Item: { id: journalId, priors: { S: JSON.stringify(priors) } } });
  const dropJournal = () => call('DeleteItem', { TableName: TRANSACTION_JOURNAL_TABLE, Key: { id: journalId } });

  const reasons: CancellationReason[] = [];
  for (const [index, item] of items.entries()) {
    const { prior } = priors[index]!;
    const { operation, request, condition } = operationOf(item, prior, targets[index]!.key);
    const answer = await call(operation, request);
    const reason = reasonOf(answer, condition, prior);
    if (!reason) {
      await restore(call, priors);
      await dropJournal();
      throw new Error(`The embedded DynamoDB answered ${operation} with ${answer.status} ${String(answer.body.__type ?? '')}`);
    }
    reasons.push(reason);
  }
  const succeeded = reasons.every((reason) => reason.Code === 'None');
  await (succeeded ? clearChecked(call, priors) : restore(call, priors));
  await dropJournal();
  return answerOf(reasons);
}

/**
 * Applies a transaction's items with nothing journaled (an in-memory table
 * dies with its process, transactions half done included): each write
 * returns its item's prior image (ReturnValues ALL_OLD), so only condition
 * checks read first. About half the calls of a journaled transaction.
 */
async function directWrite(call: DirectDynamo, items: WireItem[], targets: Target[]): Promise<TransactionAnswer> {
  // What was written, with what each item was before: what a rollback puts back. A refused item wrote nothing.
  const applied: Prior[] = [];
  const reasons: CancellationReason[] = [];
  for (const [index, item] of items.entries()) {
    const target = targets[index]!;
    const check = item.ConditionCheck !== undefined;
    let prior: AttributeMap | undefined;
    if (check) {
      const { body } = await call('GetItem', { TableName: target.table, Key: target.key, ConsistentRead: true });
      prior = body.Item as AttributeMap | undefined;
    }
    const { operation, request, condition } = operationOf(item, prior, target.key);
    const answer = await call(operation, check ? request : { ...(request as object), ReturnValues: 'ALL_OLD' });
    if (answer.status === 200 && !check) prior = answer.body.Attributes as AttributeMap | undefined;
    if (answer.status !== 200 && !check && condition?.ReturnValuesOnConditionCheckFailure === 'ALL_OLD') {
      const { body } = await call('GetItem', { TableName: target.table, Key: target.key, ConsistentRead: true });
      prior = body.Item as AttributeMap | undefined;
    }
    const reason = reasonOf(answer, condition, prior);
    if (!reason) {
      await restore(call, applied);
      throw new Error(`The embedded DynamoDB answered ${operation} with ${answer.status} ${String(answer.body.__type ?? '')}`);
    }
    // Every item is tried, so each refusal is named (as DynamoDB names them).
    reasons.push(reason);
    if (reason.Code === 'None') applied.push({ ...target, ...(prior ? { prior } : {}), ...(check ? { check } : {}) });
  }
  const succeeded = reasons.every((reason) => reason.Code === 'None');
  await (succeeded ? clearChecked(call, applied) : restore(call, applied));
  return answerOf(reasons);
}

type Target = { table: string; key: AttributeMap };
type TransactionAnswer = { status: number; body: unknown };

/** What one item's answer makes of it: a cancellation reason (`None` when applied), or undefined for a fault. */
function reasonOf(
  answer: { status: number; body: Record<string, unknown> },
  condition: ConditionParts | undefined,
  prior: AttributeMap | undefined,
): CancellationReason | undefined {
  if (answer.status === 200) return { Code: 'None' };
  const type = String(answer.body.__type ?? '');
  if (type.endsWith('#ConditionalCheckFailedException')) {
    return {
      Code: 'ConditionalCheckFailed',
      Message: 'The conditional request failed',
      ...(condition?.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && prior ? { Item: prior } : {}),
    };
  }
  if (type.endsWith('#ValidationException')) return { Code: 'ValidationError', Message: String(answer.body.message ?? 'Validation error') };
  return undefined;
}

/** Removes the bare keys that condition checks of absent items wrote (a check writes nothing in DynamoDB). */
async function clearChecked(call: DirectDynamo, written: readonly Prior[]): Promise<void> {
  for (const { table, key, prior, check } of written) if (check && !prior) await call('DeleteItem', { TableName: table, Key: key });
}

function answerOf(reasons: CancellationReason[]): TransactionAnswer {
  if (reasons.every((reason) => reason.Code === 'None')) return { status: 200, body: {} };
  return {
    status: 400,
    body: {
      __type: `${ERROR_PREFIX}TransactionCanceledException`,
      message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((reason) => reason.Code).join(', ')}]`,
      CancellationReasons: reasons,
    },
  };
}

/** Puts every item back as it was before the transaction (in reverse order). */
async function restore(call: DirectDynamo, priors: readonly Prior[]): Promise<void> {
  for (const { table, key, prior } of [...priors].reverse()) {
    await call(prior ? 'PutItem' : 'DeleteItem', prior ? { TableName: table, Item: prior } : { TableName: table, Key: key });
  }
}

function targetOf(item: WireItem, keyAttributes: readonly string[]): { table: string; key: AttributeMap } | undefined {
  const parts = [item.Put, item.Update, item.Delete, item.ConditionCheck].filter(Boolean);
  if (parts.length !== 1) return undefined;
  if (item.Put) {
    const key = Object.fromEntries(keyAttributes.filter((name) => name in item.Put!.Item).map((name) => [name, item.Put!.Item[name]]));
    return { table: item.Put.TableName, key };
  }
  const part = (item.Update ?? item.Delete ?? item.ConditionCheck)!;
  return { table: part.TableName, key: part.Key };
}

/** The single-item operation that applies one transaction item, with its condition. */
function operationOf(
  item: WireItem,
  prior: AttributeMap | undefined,
  key: AttributeMap,
): { operation: string; request: unknown; condition?: ConditionParts } {
  const conditionOf = <T extends ConditionParts>({ ReturnValuesOnConditionCheckFailure: _returned, ...rest }: T) => rest;
  if (item.Put) return { operation: 'PutItem', request: conditionOf(item.Put), condition: item.Put };
  if (item.Update) return { operation: 'UpdateItem', request: conditionOf(item.Update), condition: item.Update };
  if (item.Delete) return { operation: 'DeleteItem', request: conditionOf(item.Delete), condition: item.Delete };
  // A condition check writes the item back as it was (or its bare key, removed again by the rollback when absent).
  const check = item.ConditionCheck!;
  const { Key: _key, ...rest } = conditionOf(check);
  return { operation: 'PutItem', request: { ...rest, Item: prior ?? key }, condition: check };
}

/** Calls dynalite's own request handler in-process, with a request and a response that live in memory. */
function directCaller(dynalite: Handler): DirectDynamo {
  return (operation, body) =>
    new Promise((resolve, reject) => {
      const request = Object.assign(Readable.from([Buffer.from(JSON.stringify(body))]), {
        method: 'POST',
        url: '/',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': `DynamoDB_20120810.${operation}`,
          'x-amz-date': '20260101T000000Z',
          authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=local',
        },
      });
      const response = {
        statusCode: 200,
        setHeader: () => undefined,
        end: (text?: string) => {
          try {
            resolve({ status: response.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        },
      };
      dynalite(request as unknown as IncomingMessage, response as unknown as ServerResponse);
    });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': crypto.randomUUID(),
  });
  response.end(text);
}
