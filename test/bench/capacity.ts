import type { IncomingMessage } from 'node:http';
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

interface Write {
  key: string;
  /** The item written whole (PutItem), else undefined: its size is read from the table afterwards. */
  item?: WireItem;
  /** Whether the request names an index key (SET or REMOVE of it). */
  namesIndexKey: Set<string>;
  transactional: boolean;
}
interface Read {
  key?: string;
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
 * Counts the capacity DynamoDB on-demand would bill for the calls an
 * embedded server sees (an `onAwsRequest` observer): writes at a unit per
 * KiB of the item (its size after all writes when the request does not
 * carry it whole, an upper bound as items only grow here), twice inside a
 * transaction (condition checks included), plus one unit per index the
 * write reaches (the projections are under 1 KiB); reads at a unit per
 * 4 KiB, half when eventually consistent, twice inside a transaction;
 * a Query at one unit (its pages here are a few small items).
 */
export class CapacityMeter {
  private readonly writes: Write[] = [];
  private readonly reads: Read[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly ignore: (request: IncomingMessage) => boolean = () => false) {}

  observe = (service: 'dynamodb' | 'sqs', operation: string, request: IncomingMessage): void => {
    if (service !== 'dynamodb' || this.ignore(request)) return;
    const done = new Promise<void>((resolve) =>
      tapBody(request, (body) => {
        this.record(operation, JSON.parse(body) as Body);
        resolve();
      }),
    );
    this.pending.add(done);
    void done.then(() => this.pending.delete(done));
  };

  /**
   * Each item's size when it was first written whole (a Put), by `pk|sk`: billing every later write at it gives a lower
   * bound, as the items here only grow.
   */
  async firstWrittenSizes(): Promise<Map<string, number>> {
    await Promise.all(this.pending);
    const sizes = new Map<string, number>();
    for (const write of this.writes) if (write.item && !sizes.has(write.key)) sizes.set(write.key, itemSize(write.item));
    return sizes;
  }

  /** The units of every call seen, with `sizeOf` the table's items as they are now (by `pk|sk`). */
  async units(sizeOf: (key: string) => number | undefined): Promise<CapacityUnits> {
    await Promise.all(this.pending);
    let writeUnits = 0;
    const writeUnitsByKind = new Map<string, number>();
    for (const write of this.writes) {
      const size = write.item ? itemSize(write.item) : (sizeOf(write.key) ?? 1);
      const indexes = INDEX_KEYS.filter((key) => write.namesIndexKey.has(key) || (write.item ?? {})[key] !== undefined).length;
      const units = (write.transactional ? 2 : 1) * Math.ceil(size / 1024) + indexes;
      writeUnits += units;
      const kind = /^[A-Z]+#/.exec(write.key)?.[0] ?? write.key;
      writeUnitsByKind.set(kind, (writeUnitsByKind.get(kind) ?? 0) + units);
    }
    let readUnits = 0;
    for (const read of this.reads) {
      const size = read.key ? (sizeOf(read.key) ?? 1) : 1;
      readUnits += Math.ceil(size / 4096) * (read.transactional ? 2 : read.consistent ? 1 : 0.5);
    }
    return { writeUnits, readUnits, writeUnitsByKind };
  }

  private record(operation: string, body: Body): void {
    switch (operation) {
      case 'PutItem':
        this.writes.push(this.writeOf(body.Item!, body, false, body.Item));
        break;
      case 'UpdateItem':
      case 'DeleteItem':
        this.writes.push(this.writeOf(body.Key!, body, false));
        break;
      case 'BatchWriteItem':
        for (const requests of Object.values(body.RequestItems ?? {}))
          for (const request of requests as { PutRequest?: { Item: WireItem }; DeleteRequest?: { Key: WireItem } }[]) {
            if (request.PutRequest) this.writes.push(this.writeOf(request.PutRequest.Item, {}, false, request.PutRequest.Item));
            if (request.DeleteRequest) this.writes.push(this.writeOf(request.DeleteRequest.Key, {}, false));
          }
        break;
      case 'TransactWriteItems':
        for (const action of body.TransactItems ?? []) {
          if (action.Put) this.writes.push(this.writeOf(action.Put.Item, action.Put, true, action.Put.Item));
          for (const part of [action.Update, action.Delete, action.ConditionCheck])
            if (part) this.writes.push(this.writeOf(part.Key, part, true));
        }
        break;
      case 'GetItem':
        this.reads.push({ key: keyOf(body.Key!), consistent: body.ConsistentRead === true, transactional: false });
        break;
      case 'TransactGetItems':
        for (const action of body.TransactItems ?? [])
          if (action.Get) this.reads.push({ key: keyOf(action.Get.Key), consistent: true, transactional: true });
        break;
      case 'Query':
      case 'Scan':
        this.reads.push({ consistent: body.ConsistentRead === true, transactional: false });
        break;
      default:
        break;
    }
  }

  private writeOf(key: WireItem, request: Body, transactional: boolean, item?: WireItem): Write {
    const expression = `${request.UpdateExpression ?? ''} ${JSON.stringify(request.ExpressionAttributeNames ?? {})}`;
    return {
      key: keyOf(key),
      ...(item ? { item } : {}),
      namesIndexKey: new Set(INDEX_KEYS.filter((name) => expression.includes(name))),
      transactional,
    };
  }
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
