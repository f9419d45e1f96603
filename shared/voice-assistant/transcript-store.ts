import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TranscriptEntry } from '../calls/record';
import { commandKey } from '../commands/store';
import { systemClock, type Clock } from '../platform/clock';
import { isConditionalCheckFailed } from '../platform/dynamodb-errors';
import * as z from 'zod/mini';
import { valueSize } from '../platform/item-size';
import { transcriptSchema } from './call-brief';
import { RELAY_LIMITS } from './limits';
import { startsWithWords } from './speech';
import { OPEN_UNTIL } from './summary-store';

/**
 * `appended`: kept; `closed`: the call's summary was queued (or skipped)
 * and its grace is over, so the transcript takes nothing more; `full`: it holds its most entries
 * or bytes (RELAY_LIMITS);
 * `refused`: the command is gone or its call is another one.
 */
export type AppendOutcome = 'appended' | 'closed' | 'full' | 'refused';

/** The transcript of a call that still takes entries, and the bytes its entries take (`transcript_bytes`). */
export interface OpenTranscript {
  entries: TranscriptEntry[];
  bytes: number;
}

/**
 * Port: the transcript of a command's call, kept on the command item as the
 * call goes (`transcript`), one conditional write per change (a turn's
 * caller words and reply are one change), so a socket that drops loses
 * nothing already said. Writes are accepted only for the
 * command's own call (its provider call id) and only until the summary is
 * requested, or, when it was requested with a grace, until the grace ends
 * (`transcript_open_until`: a turn being answered as the call ended still
 * writes its words); after that the transcript never changes. Its size is
 * bounded twice: by entries (`maxTranscriptEntries`) and by the bytes they
 * take in the item (`maxTranscriptBytes`, counted in `transcript_bytes`
 * by the same conditional write).
 */
export interface TranscriptStore {
  /**
   * The transcript as it stands (read alone, not the whole command), or why
   * it takes nothing more: `closed` (the summary was requested) or `refused`
   * (the command is gone, its call is another one, or its transcript does not read as one).
   */
  read(commandId: string, callSid: string): Promise<OpenTranscript | 'closed' | 'refused'>;
  /** Appends entries at the end (DynamoDB `list_append`: concurrent appends never overwrite each other). */
  append(commandId: string, callSid: string, entries: readonly TranscriptEntry[]): Promise<AppendOutcome>;
  /**
   * Holds the cut of a reply the caller spoke over before its turn kept it
   * (in AWS an `interrupt` runs beside the turn still streaming): the next
   * append that keeps a reply cuts it to `spoken` and marks it interrupted,
   * when `spoken` is the start of that reply, in the same write. False when
   * the transcript takes nothing more.
   */
  holdCut(commandId: string, callSid: string, spoken: string, now: number): Promise<boolean>;
  /**
   * Replaces the content of entry `index` (an assistant reply the caller
   * spoke over) with what was spoken, marking it interrupted; only while the
   * transcript still has `length` entries and that entry is the assistant's.
   */
  cutReply(commandId: string, callSid: string, index: number, length: number, spoken: string): Promise<boolean>;
}

/** The command's attribute that counts the bytes its transcript's entries take. */
const BYTES = 'transcript_bytes';

/** The command's attribute holding an interrupt's cut for a reply not yet kept (`holdCut`); never shown. */
export const CUT = 'transcript_held_cut';

/** A held cut: what was spoken of the reply, and when the interrupt came. */
interface HeldCut {
  spoken: string;
  at: string;
}

const heldCutSchema = z.object({ spoken: z.string(), at: z.string() });

/** The entries with their last reply cut to `spoken` and marked interrupted, when `spoken` is the start of it. */
function withCut(entries: TranscriptEntry[], spoken: string): TranscriptEntry[] {
  const index = entries.findLastIndex((entry) => entry.role === 'assistant');
  const reply = entries[index];
  if (!reply || spoken.length >= reply.content.length || !startsWithWords(reply.content, spoken)) return entries;
  return entries.map((entry, at) => (at === index ? { ...entry, content: spoken, interrupted: true } : entry));
}

/** When the transcript takes a write, `:now` its time: while no summary was requested, or until its grace is over. */
const OPEN = '(attribute_not_exists(#summary) OR #open > :now)';

/** Whether a command item's transcript takes a write at `now` (OPEN, read back). */
function isOpen(item: Record<string, unknown>, now: number): boolean {
  return item.meeting_summary === undefined || (typeof item[OPEN_UNTIL] === 'number' && item[OPEN_UNTIL] > now);
}

/** TranscriptStore on the command items of the single table; `clock` dates each write against the transcript's grace. */
export function dynamoTranscriptStore(db: DynamoDBDocumentClient, tableName: string, clock: Clock = systemClock): TranscriptStore {
  /** Why an append's condition failed, read back: or the cut an interrupt held, when that was all that stood in its way. */
  const why = async (
    commandId: string,
    callSid: string,
    adding: number,
    addingBytes: number,
  ): Promise<AppendOutcome | { held: HeldCut }> => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: commandKey(commandId), ConsistentRead: true }));
    const call = Item?.call as { provider_call_id?: unknown } | undefined;
    if (!Item || call?.provider_call_id !== callSid) return 'refused';
    if (!isOpen(Item, clock.now())) return 'closed';
    const length = Array.isArray(Item.transcript) ? Item.transcript.length : 0;
    const bytes = typeof Item[BYTES] === 'number' ? Item[BYTES] : 0;
    if (length + adding > RELAY_LIMITS.maxTranscriptEntries || bytes + addingBytes > RELAY_LIMITS.maxTranscriptBytes) return 'full';
    const held = heldCutSchema.safeParse(Item[CUT]);
    return held.success ? { held: held.data } : 'refused';
  };

  /**
   * One conditional append. With no `held` cut the item must hold none; with one, it must still hold that one (by its
   * time), and `consume` removes it in the same write.
   */
  const write = async (commandId: string, callSid: string, kept: TranscriptEntry[], held?: { at: string; consume: boolean }) => {
    // What the entries add to the item: each list element's value and its byte of overhead.
    const addingBytes = kept.reduce((total, entry) => total + 1 + valueSize(entry), 0);
    try {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: commandKey(commandId),
          UpdateExpression:
            'SET #transcript = list_append(if_not_exists(#transcript, :empty), :entries), #bytes = if_not_exists(#bytes, :zero) + :adding' +
            (held?.consume ? ' REMOVE #cut' : ''),
          ConditionExpression:
            `attribute_exists(pk) AND #call.provider_call_id = :sid AND ${OPEN} AND (attribute_not_exists(#transcript) OR size(#transcript) <= :room) ` +
            `AND (attribute_not_exists(#bytes) OR #bytes <= :roomBytes) AND ${held ? '#cut.#at = :cutAt' : 'attribute_not_exists(#cut)'}`,
          ExpressionAttributeNames: {
            '#transcript': 'transcript',
            '#call': 'call',
            '#summary': 'meeting_summary',
            '#bytes': BYTES,
            '#open': OPEN_UNTIL,
            '#cut': CUT,
            ...(held ? { '#at': 'at' } : {}),
          },
          ExpressionAttributeValues: {
            ':now': clock.now(),
            ':empty': [],
            ':entries': kept,
            ':sid': callSid,
            ':room': RELAY_LIMITS.maxTranscriptEntries - kept.length,
            ':zero': 0,
            ':adding': addingBytes,
            ':roomBytes': RELAY_LIMITS.maxTranscriptBytes - addingBytes,
            ...(held ? { ':cutAt': held.at } : {}),
          },
        }),
      );
      return 'appended' as const;
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      return why(commandId, callSid, kept.length, addingBytes);
    }
  };

  return {
    async read(commandId, callSid) {
      const { Item } = await db.send(
        new GetCommand({
          TableName: tableName,
          Key: commandKey(commandId),
          ConsistentRead: true,
          ProjectionExpression: '#transcript, #bytes, #call.provider_call_id, #summary.#status, #open',
          ExpressionAttributeNames: {
            '#transcript': 'transcript',
            '#bytes': BYTES,
            '#call': 'call',
            '#summary': 'meeting_summary',
            '#status': 'status',
            '#open': OPEN_UNTIL,
          },
        }),
      );
      const call = Item?.call as { provider_call_id?: unknown } | undefined;
      if (!Item || call?.provider_call_id !== callSid) return 'refused';
      if (!isOpen(Item, clock.now())) return 'closed';
      const entries = transcriptSchema().safeParse(Item.transcript ?? []);
      if (!entries.success) return 'refused';
      return { entries: entries.data, bytes: typeof Item[BYTES] === 'number' ? Item[BYTES] : 0 };
    },

    async append(commandId, callSid, entries) {
      if (entries.length === 0) return 'appended';
      const kept = entries.map(withoutUndefined);
      const first = await write(commandId, callSid, kept);
      if (typeof first === 'string') return first;
      // An interrupt held a cut for a reply not yet kept: an append that keeps a reply takes it (applied when it is this
      // reply's, dropped when not); a keypress leaves it for the reply still to come.
      const replies = kept.some((entry) => entry.role === 'assistant');
      const again = await write(commandId, callSid, replies ? withCut(kept, first.held.spoken) : kept, {
        at: first.held.at,
        consume: replies,
      });
      return typeof again === 'string' ? again : 'refused';
    },

    async holdCut(commandId, callSid, spoken, now) {
      const held: HeldCut = { spoken, at: new Date(now).toISOString() };
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: commandKey(commandId),
            UpdateExpression: 'SET #cut = :held',
            ConditionExpression: `attribute_exists(pk) AND #call.provider_call_id = :sid AND ${OPEN}`,
            ExpressionAttributeNames: { '#cut': CUT, '#call': 'call', '#summary': 'meeting_summary', '#open': OPEN_UNTIL },
            ExpressionAttributeValues: { ':held': held, ':sid': callSid, ':now': now },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },

    async cutReply(commandId, callSid, index, length, spoken) {
      if (!Number.isInteger(index) || index < 0 || index >= length) return false;
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: commandKey(commandId),
            // A list index cannot be an expression value; `index` is a checked integer.
            UpdateExpression: `SET #transcript[${index}].#content = :spoken, #transcript[${index}].#interrupted = :yes`,
            ConditionExpression: `attribute_exists(pk) AND #call.provider_call_id = :sid AND ${OPEN} AND size(#transcript) = :length AND #transcript[${index}].#role = :assistant`,
            ExpressionAttributeNames: {
              '#transcript': 'transcript',
              '#content': 'content',
              '#interrupted': 'interrupted',
              '#role': 'role',
              '#call': 'call',
              '#summary': 'meeting_summary',
              '#open': OPEN_UNTIL,
            },
            ExpressionAttributeValues: {
              ':spoken': spoken,
              ':yes': true,
              ':sid': callSid,
              ':length': length,
              ':assistant': 'assistant',
              ':now': clock.now(),
            },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },
  };
}

/** DynamoDB's document client refuses `undefined` values; optional fields are left out instead. */
function withoutUndefined(entry: TranscriptEntry): TranscriptEntry {
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined)) as unknown as TranscriptEntry;
}
