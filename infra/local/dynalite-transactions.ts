import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * TransactWriteItems for the embedded DynamoDB (dynalite has none).
 *
 * The wrapped server takes every request first. Ordinary operations run
 * concurrently, as before; a transaction waits until none is in flight and
 * holds every later request back while it runs, so nothing observes it half
 * done. It then applies its items one by one through dynalite itself (each
 * with its own condition, so conditions are evaluated by dynalite's own
 * expression engine), remembering each item's prior image; when any item is
 * refused, the ones already applied are put back as they were and the
 * caller gets DynamoDB's `TransactionCanceledException` with one
 * cancellation reason per item, in order.
 *
 * What the real service does and this does not: the ClientRequestToken's
 * ten-minute idempotency window, and the doubled write-capacity accounting.
 */
export function addTransactions(server: Server, keyAttributes: readonly string[]): void {
  const [dynalite] = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  if (!dynalite) throw new Error('The embedded DynamoDB has no request handler to wrap');
  server.removeAllListeners('request');

  let inFlight = 0;
  let exclusive = false;
  const waiting: (() => void)[] = [];
  const drained: (() => void)[] = [];
  const wake = () => {
    if (exclusive) return;
    while (waiting.length > 0 && !exclusive) waiting.shift()!();
    if (inFlight === 0) while (drained.length > 0 && !exclusive) drained.shift()!();
  };

  const passThrough = (request: IncomingMessage, response: ServerResponse) => {
    inFlight += 1;
    response.once('close', () => {
      inFlight -= 1;
      wake();
    });
    dynalite(request, response);
  };

  const runExclusive = async <T>(work: () => Promise<T>): Promise<T> => {
    while (exclusive || inFlight > 0) await new Promise<void>((resolve) => (exclusive ? waiting : drained).push(resolve));
    exclusive = true;
    try {
      return await work();
    } finally {
      exclusive = false;
      wake();
    }
  };

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const target = String(request.headers['x-amz-target'] ?? '');
    if (isTransactionStep(request)) return dynalite(request, response);
    if (target.endsWith('.TransactWriteItems')) {
      void readBody(request)
        .then((body) => runExclusive(() => transactWrite(endpointOf(server), body, keyAttributes)))
        .then(({ status, body }) => send(response, status, body))
        .catch((error: unknown) => send(response, 500, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: String(error) }));
      return;
    }
    if (!exclusive) return passThrough(request, response);
    waiting.push(() => passThrough(request, response));
  });
}

/** Marks the transaction's own item requests, which must not wait behind the transaction. */
const INTERNAL_HEADER = 'x-switchboard-transaction';
const internalToken = crypto.randomUUID();

/** True for a request the transaction layer makes itself (one step of a TransactWriteItems): observers count the transaction, not its steps. */
export function isTransactionStep(request: IncomingMessage): boolean {
  return request.headers[INTERNAL_HEADER] === internalToken;
}

type AttributeMap = Record<string, unknown>;
type WireItem = {
  Put?: { TableName: string; Item: AttributeMap } & ConditionParts;
  Update?: { TableName: string; Key: AttributeMap; UpdateExpression: string } & ConditionParts;
  Delete?: { TableName: string; Key: AttributeMap } & ConditionParts;
  ConditionCheck?: { TableName: string; Key: AttributeMap; ConditionExpression: string } & ConditionParts;
};
interface ConditionParts {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: AttributeMap;
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}
interface CancellationReason {
  Code: string;
  Message?: string;
  Item?: AttributeMap;
}

const MAX_TRANSACTION_ITEMS = 100;
const ERROR_PREFIX = 'com.amazonaws.dynamodb.v20120810#';

async function transactWrite(endpoint: string, raw: string, keyAttributes: readonly string[]): Promise<{ status: number; body: unknown }> {
  const items = (JSON.parse(raw) as { TransactItems?: WireItem[] }).TransactItems;
  const invalid = (message: string) => ({ status: 400, body: { __type: `${ERROR_PREFIX}ValidationException`, message } });
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_TRANSACTION_ITEMS) {
    return invalid(`1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length between 1 and ${MAX_TRANSACTION_ITEMS}`);
  }
  const call = (operation: string, body: unknown) => dynamoCall(endpoint, operation, body);
  const targets = items.map((item) => targetOf(item, keyAttributes));
  if (targets.some((target) => !target)) return invalid('Each transaction item must name exactly one of Put, Update, Delete or ConditionCheck');
  const seen = new Set<string>();
  for (const target of targets) {
    const id = `${target!.table}|${JSON.stringify(target!.key)}`;
    if (seen.has(id)) return invalid('Transaction request cannot include multiple operations on one item');
    seen.add(id);
  }

  const applied: { table: string; key: AttributeMap; prior: AttributeMap | undefined }[] = [];
  const reasons: CancellationReason[] = [];
  for (const [index, item] of items.entries()) {
    const { table, key } = targets[index]!;
    const prior = (await call('GetItem', { TableName: table, Key: key, ConsistentRead: true })).body.Item as AttributeMap | undefined;
    const { operation, request, condition } = operationOf(item, prior, key);
    const answer = await call(operation, request);
    if (answer.status === 200) {
      applied.push({ table, key, prior });
      reasons.push({ Code: 'None' });
      continue;
    }
    const type = String(answer.body.__type ?? '');
    if (type.endsWith('#ConditionalCheckFailedException')) {
      reasons.push({ Code: 'ConditionalCheckFailed', Message: 'The conditional request failed', ...(condition?.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && prior ? { Item: prior } : {}) });
    } else if (type.endsWith('#ValidationException')) {
      reasons.push({ Code: 'ValidationError', Message: String(answer.body.message ?? 'Validation error') });
    } else {
      throw new Error(`The embedded DynamoDB answered ${operation} with ${answer.status} ${type}`);
    }
  }
  if (reasons.every((reason) => reason.Code === 'None')) return { status: 200, body: {} };

  for (const { table, key, prior } of applied.reverse()) {
    await call(prior ? 'PutItem' : 'DeleteItem', prior ? { TableName: table, Item: prior } : { TableName: table, Key: key });
  }
  return {
    status: 400,
    body: {
      __type: `${ERROR_PREFIX}TransactionCanceledException`,
      message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((reason) => reason.Code).join(', ')}]`,
      CancellationReasons: reasons,
    },
  };
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
function operationOf(item: WireItem, prior: AttributeMap | undefined, key: AttributeMap): { operation: string; request: unknown; condition?: ConditionParts } {
  const conditionOf = <T extends ConditionParts>({ ReturnValuesOnConditionCheckFailure: _returned, ...rest }: T) => rest;
  if (item.Put) return { operation: 'PutItem', request: conditionOf(item.Put), condition: item.Put };
  if (item.Update) return { operation: 'UpdateItem', request: conditionOf(item.Update), condition: item.Update };
  if (item.Delete) return { operation: 'DeleteItem', request: conditionOf(item.Delete), condition: item.Delete };
  // A condition check writes the item back as it was (or its bare key, removed again by the rollback when absent).
  const check = item.ConditionCheck!;
  const { Key: _key, ...rest } = conditionOf(check);
  return { operation: 'PutItem', request: { ...rest, Item: prior ?? key }, condition: check };
}

async function dynamoCall(endpoint: string, operation: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDB_20120810.${operation}`,
      'x-amz-date': '20260101T000000Z',
      authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=local',
      [INTERNAL_HEADER]: internalToken,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function endpointOf(server: Server): string {
  const address = server.address() as AddressInfo;
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
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
  response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'content-length': Buffer.byteLength(text), 'x-amzn-requestid': crypto.randomUUID() });
  response.end(text);
}
