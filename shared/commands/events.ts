/** One event for the tenant's webhook endpoints (ARCHITECTURE.md "Webhooks"). */
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

/**
 * Port: hands events to whoever delivers them (the completion webhooks).
 * Publishing is at least once from the caller's side, so it must be
 * idempotent by `idempotencyKey`. A failure throws, so the caller's job is
 * retried rather than the event lost.
 */
export interface EventPublisher {
  publish(event: PublishedEvent): Promise<void>;
}

/** A publisher that drops every event: for compositions with no webhooks (tests, tools). */
export const noEvents: EventPublisher = { publish: async () => {} };
