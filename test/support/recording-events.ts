import type { EventPublisher, PublishedEvent } from '../../shared/commands/events';

/**
 * An EventPublisher that keeps what it is given, in order: a published
 * event at once, a staged one once its caller's write committed (`deliver`).
 * With `failing`, publishing and staging throw (a webhook store that is down).
 */
export function recordingPublisher(options: { failing?: boolean } = {}): EventPublisher & { events: PublishedEvent[] } {
  const events: PublishedEvent[] = [];
  const down = () => new Error('webhook store down');
  return {
    events,
    async publish(event) {
      if (options.failing) throw down();
      events.push(event);
    },
    async stage(drafts) {
      if (options.failing) throw down();
      const resolved = await Promise.all(
        drafts.map(async (draft) => ({ ...draft, data: typeof draft.data === 'function' ? await draft.data() : draft.data })),
      );
      return { items: [], deliver: async () => void events.push(...resolved) };
    },
  };
}
