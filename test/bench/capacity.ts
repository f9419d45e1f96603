import type { IncomingMessage, ServerResponse } from 'node:http';
import { TABLE } from '../../shared/catalogue/table';
import { itemSize as sizeOfItem } from '../../shared/platform/item-size';
import { tapBody } from '../../infra/local/tap-body';

/** An attribute value as DynamoDB's wire protocol carries it. */
interface WireValue {
  S?: string;
  N?: string;
  B?: string;
  BOOL?: boolean;
  NULL?: boolean;
  SS?: string[];
  NS?: string[];
  BS?: string[];
  L?: WireValue[];
  M?: WireItem;
}
/** An item as DynamoDB's wire protocol carries it. */
export type WireItem = Record<string, WireValue>;

/** An item's size as DynamoDB bills it (shared/platform/item-size.ts, on the item read off the wire; a set counted as a list). */
export function itemSize(item: WireItem): number {
  return sizeOfItem(plainItem(item));
}

function plainItem(item: WireItem): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).map(([name, value]) => [name, plainValue(value)]));
}

function plainValue(value: WireValue): unknown {
  if (value.N !== undefined) return Number(value.N);
  if (value.B !== undefined) return 'x'.repeat(Buffer.from(value.B, 'base64').length);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL !== undefined) return null;
  if (value.SS ?? value.BS) return value.SS ?? value.BS;
  if (value.NS) return value.NS.map(Number);
  if (value.L) return value.L.map(plainValue);
  if (value.M) return plainItem(value.M);
  return value.S ?? '';
}

/** The index partition-key attributes (a write touching an item indexed by one also writes the index). */
const INDEX_KEYS = TABLE.indexes.map((index) => index.partitionKey);

/** How a write reaches its item. */
type WriteKind = 'put' | 'update' | 'delete' | 'check';

interface Write {
  key: string;
  keyItem: WireItem;
  kind: WriteKind;
  /** The item written whole (a Put). */
  item?: WireItem;
  /** Whether the request names an index key (SET or REMOVE of it). */
  namesIndexKey: Set<string>;
  transactional: boolean;
  /** The item's size before the call and after it (bytes, 0: no item), filled in once the call is answered. */
  before?: number;
  after?: number;
}
interface Read {
  key?: string;
  /** The item's size when read (bytes). */
  size: number;
  consistent: boolean;
  transactional: boolean;
}

/** Capacity units, read and write, of the calls observed. */
export interface CapacityUnits {
  writeUnits: number;
  readUnits: number;
  /** Write units by the kind of item written (its partition key's prefix, `CMD#`, `USAGE#`, …). */
  writeUnitsByKind: Map<string, number>;
}

/**
 * What the meter needs of a call besides its request: the answer's status and its `end`, called once the service has
 * done the call, and an in-process read of an item that no held call can block.
 */
export interface MeteredCall {
  response: Pick<ServerResponse, 'statusCode' | 'end'>;
  readItem(key: WireItem): Promise<Record<string, unknown> | undefined>;
}

/**
 * Counts the capacity DynamoDB on-demand bills for the calls an embedded
 * server sees (an `onAwsRequest` observer), as DynamoDB reckons it: a write
 * at a unit per KiB of the larger of its item before and after the call
 * (a Put of a new item: the item; a Delete: the item removed; a condition
 * check, or a write whose condition failed: the item as it is), at least
 * one, twice inside a transaction, plus one unit per index the write
 * reaches (the projections are under 1 KiB); reads at a unit per 4 KiB of
 * the item read, half when eventually consistent, twice inside a
 * transaction; a Query at one unit (its pages here are a few small items).
 *
 * Sizes are followed item by item: a Put's from its body, an Update's read
 * back (in-process) once the service has done the call and before its
 * answer leaves (held back meanwhile), in the order the calls to that item
 * were done. A read back can only see a later write if another caller's
 * write of the same item came in between (a tenant's shared counters),
 * which the meter notices and counts ({@link CapacityMeter.raced}).
 */
export class CapacityMeter {
  private readonly writes: Write[] = [];
  private readonly reads: Read[] = [];
  private readonly pending = new Set<Promise<void>>();
  /** Each item's size as the calls answered so far left it. */
  private readonly sizes = new Map<string, number>();
  /** Per item, the end of the chain of its answered writes still being sized. */
  private readonly chains = new Map<string, Promise<void>>();
  /** Per item, how many writes of it have come in. */
  private readonly arrivals = new Map<string, number>();
  private readonly racedReads = new Map<string, number>();

  constructor(private readonly ignore: (request: IncomingMessage) => boolean = () => false) {}

  /**
   * Read backs that a later write of the same item may have overtaken, by kind of item (none for an exact count; the
   * tenant's shared counters are written by many commands at once, but stay far under a unit).
   */
  get raced(): ReadonlyMap<string, number> {
    return this.racedReads;
  }

  observe = (service: 'dynamodb' | 'sqs', operation: string, request: IncomingMessage, call: MeteredCall): void => {
    const answer = call.response;
    if (service !== 'dynamodb' || this.ignore(request)) return;
    let writes: Write[] = [];
    const parsed = new Promise<void>((resolve) =>
      tapBody(request, (body) => {
        writes = this.record(operation, JSON.parse(body) as Body);
        for (const write of writes) this.arrivals.set(write.key, (this.arrivals.get(write.key) ?? 0) + 1);
        resolve();
      }),
    );
    this.track(parsed);
    // The answer waits until the items written are sized, so its caller cannot write them again before they are read back.
    const end = answer.end.bind(answer) as (...args: unknown[]) => void;
    answer.end = ((...args: unknown[]) => {
      const succeeded = answer.statusCode === 200;
      const sized = parsed.then(() => Promise.all(writes.map((write) => this.size(write, succeeded, call)))).then(() => end(...args));
      this.track(sized);
      return answer;
    }) as typeof answer.end;
  };

  /** The units of every call seen. */
  async units(): Promise<CapacityUnits> {
    while (this.pending.size > 0) await Promise.all(this.pending);
    let writeUnits = 0;
    const writeUnitsByKind = new Map<string, number>();
    for (const write of this.writes) {
      const size = Math.max(write.before ?? 0, write.after ?? 0);
      const indexes = INDEX_KEYS.filter((key) => write.namesIndexKey.has(key) || (write.item ?? {})[key] !== undefined).length;
      const units = (write.transactional ? 2 : 1) * Math.max(1, Math.ceil(size / 1024)) + indexes;
      writeUnits += units;
      const kind = kindOf(write.key);
      writeUnitsByKind.set(kind, (writeUnitsByKind.get(kind) ?? 0) + units);
    }
    let readUnits = 0;
    for (const read of this.reads)
      readUnits += Math.max(1, Math.ceil(read.size / 4096)) * (read.transactional ? 2 : read.consistent ? 1 : 0.5);
    return { writeUnits, readUnits, writeUnitsByKind };
  }

  private track(done: Promise<void>): void {
    this.pending.add(done);
    void done.then(() => this.pending.delete(done));
  }

  /** Fills in `write`'s sizes before and after, after those of the writes of its item answered earlier. */
  private size(write: Write, succeeded: boolean, call: MeteredCall): Promise<void> {
    const arrivedSoFar = this.arrivals.get(write.key);
    const previous = this.chains.get(write.key) ?? Promise.resolve();
    const sized = previous.then(async () => {
      const before = this.sizes.get(write.key) ?? 0;
      let after = before;
      if (succeeded && write.kind === 'put') after = itemSize(write.item!);
      else if (succeeded && write.kind === 'delete') after = 0;
      else if (succeeded && write.kind === 'update') {
        const item = await call.readItem(write.keyItem);
        after = item ? itemSize(item as WireItem) : 0;
        if (this.arrivals.get(write.key) !== arrivedSoFar)
          this.racedReads.set(kindOf(write.key), (this.racedReads.get(kindOf(write.key)) ?? 0) + 1);
      }
      write.before = before;
      write.after = after;
      this.sizes.set(write.key, after);
    });
    this.chains.set(write.key, sized);
    return sized;
  }

  private record(operation: string, body: Body): Write[] {
    const writes: Write[] = [];
    switch (operation) {
      case 'PutItem':
        writes.push(this.writeOf('put', body.Item!, body, false, body.Item));
        break;
      case 'UpdateItem':
        writes.push(this.writeOf('update', body.Key!, body, false));
        break;
      case 'DeleteItem':
        writes.push(this.writeOf('delete', body.Key!, body, false));
        break;
      case 'BatchWriteItem':
        for (const requests of Object.values(body.RequestItems ?? {}))
          for (const request of requests as { PutRequest?: { Item: WireItem }; DeleteRequest?: { Key: WireItem } }[]) {
            if (request.PutRequest) writes.push(this.writeOf('put', request.PutRequest.Item, {}, false, request.PutRequest.Item));
            if (request.DeleteRequest) writes.push(this.writeOf('delete', request.DeleteRequest.Key, {}, false));
          }
        break;
      case 'TransactWriteItems':
        for (const action of body.TransactItems ?? []) {
          if (action.Put) writes.push(this.writeOf('put', action.Put.Item, action.Put, true, action.Put.Item));
          if (action.Update) writes.push(this.writeOf('update', action.Update.Key, action.Update, true));
          if (action.Delete) writes.push(this.writeOf('delete', action.Delete.Key, action.Delete, true));
          if (action.ConditionCheck) writes.push(this.writeOf('check', action.ConditionCheck.Key, action.ConditionCheck, true));
        }
        break;
      case 'GetItem':
        this.reads.push({ ...this.sizeRead(body.Key!), consistent: body.ConsistentRead === true, transactional: false });
        break;
      case 'TransactGetItems':
        for (const action of body.TransactItems ?? [])
          if (action.Get) this.reads.push({ ...this.sizeRead(action.Get.Key), consistent: true, transactional: true });
        break;
      case 'Query':
      case 'Scan':
        this.reads.push({ size: 0, consistent: body.ConsistentRead === true, transactional: false });
        break;
      default:
        break;
    }
    this.writes.push(...writes);
    return writes;
  }

  private sizeRead(key: WireItem): { key: string; size: number } {
    const at = keyOf(key);
    return { key: at, size: this.sizes.get(at) ?? 0 };
  }

  private writeOf(kind: WriteKind, key: WireItem, request: Body, transactional: boolean, item?: WireItem): Write {
    const expression = `${request.UpdateExpression ?? ''} ${JSON.stringify(request.ExpressionAttributeNames ?? {})}`;
    return {
      key: keyOf(key),
      keyItem: { pk: key.pk!, sk: key.sk! },
      kind,
      ...(item ? { item } : {}),
      namesIndexKey: new Set(INDEX_KEYS.filter((name) => expression.includes(name))),
      transactional,
    };
  }
}

/** The kind of the item at `pk|sk`: its partition key's prefix (`CMD#`, `USAGE#`, …). */
function kindOf(key: string): string {
  return /^[A-Z]+#/.exec(key)?.[0] ?? key;
}

/** The `pk|sk` of an item or key. */
export function keyOf(item: WireItem): string {
  return `${item.pk?.S ?? ''}|${item.sk?.S ?? ''}`;
}

interface Action {
  Key: WireItem;
  UpdateExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
}
interface Body {
  Item?: WireItem;
  Key?: WireItem;
  ConsistentRead?: boolean;
  UpdateExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  RequestItems?: Record<string, unknown[]>;
  TransactItems?: {
    Put?: { Item: WireItem; ExpressionAttributeNames?: Record<string, string> };
    Update?: Action;
    Delete?: Action;
    ConditionCheck?: Action;
    Get?: { Key: WireItem };
  }[];
}
