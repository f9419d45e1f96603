import type { TransactionItem } from '../platform/dynamodb';

/** One event for the tenant's webhook endpoints. */
export interface PublishedEvent {
  /** The tenant whose endpoints hear of it. */
  tenantId: string;
  /** `command.completed`, `command.failed`, `call.status_changed`, `meeting_summary.created`, `follow_up.due`, `sequence.adapted`. */
  type: string;
  /** The event's `data`; for command events `data.command` equals the data of `GET /api/commands/{id}`. */
  data: Record<string, unknown>;
  /**
   * The same key for the same happening (e.g. `<command id>:completed`):
   * publishing it again (a retried job, a repeated callback) yields one event, not two.
   */
  idempotencyKey: string;
}

/** An event to stage: its `data` may be built only when somebody listens (it can cost a read). */
export interface EventDraft extends Omit<PublishedEvent, 'data'> {
  data: Record<string, unknown> | (() => Promise<Record<string, unknown>>);
}

/**
 * Events recorded in the same transaction as the change they announce (an
 * outbox): the caller adds `items` to its own conditional write, and once
 * that committed calls `deliver`. A change that did not happen records no
 * event; a change that did cannot lose its event, even to a crash right
 * after it, because a recorded event not yet handed on is found again by
 * the janitor's sweep.
 */
export interface StagedEvents {
  /** Table writes that record the events (none when no endpoint listens). */
  items: readonly TransactionItem[];
  /** Hands the recorded events on to delivery. Never throws: what it could not hand on, the sweep does. */
  deliver(): Promise<void>;
}

/**
 * Port: hands events to whoever delivers them (the completion webhooks).
 * `stage` is the way to announce a state change: its events commit with
 * the change or not at all. `publish` records and hands on an event at
 * once, for callers with no write of their own to join; it is idempotent by
 * `idempotencyKey`, and throws on failure so the caller's job is retried.
 */
export interface EventPublisher {
  stage(events: readonly EventDraft[]): Promise<StagedEvents>;
  publish(event: PublishedEvent): Promise<void>;
}

/** Nothing staged: no items, nothing to deliver. */
export const NOTHING_STAGED: StagedEvents = { items: [], deliver: async () => {} };

/** A publisher that drops every event: for compositions with no webhooks (tests, tools). */
export const noEvents: EventPublisher = { stage: async () => NOTHING_STAGED, publish: async () => {} };
