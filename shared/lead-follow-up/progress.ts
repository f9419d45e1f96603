import type { CommandRecord } from '../commands/record';
import type { ErrorInfo } from '../platform/errors';
import type { WritingContext } from './context';
import type { ChannelMessages } from './message-checks';
import type { Generation } from './presenter';
import type { FollowUpItem } from './sequence';

/**
 * What the sales phase keeps in `progress.sales` before it hands off or
 * finishes, so a redelivered job never calls the model again and the
 * copywriter phase has everything it needs.
 */
export type SalesProgress =
  | (Generation & {
      output: 'channel_messages';
      context: WritingContext;
      messages: ChannelMessages;
      /** The copywriter agent chosen for phase 2, or null when the site has none. */
      copywriter_agent_id: string | null;
    })
  | (Generation & {
      output: 'follow_up_sequence';
      follow_ups: FollowUpItem[];
    });

/** What the copywriter phase keeps in its own command's `progress.copywriter`. */
export type CopywriterProgress =
  | (Generation & { ok: true; messages: ChannelMessages })
  | { ok: false; error: ErrorInfo };

export function salesProgressOf(command: CommandRecord): SalesProgress | undefined {
  const sales = command.progress?.sales as SalesProgress | undefined;
  return sales && (sales.output === 'channel_messages' || sales.output === 'follow_up_sequence') ? sales : undefined;
}

export function copywriterProgressOf(command: CommandRecord): CopywriterProgress | undefined {
  const copywriter = command.progress?.copywriter as CopywriterProgress | undefined;
  return copywriter && typeof copywriter.ok === 'boolean' ? copywriter : undefined;
}
