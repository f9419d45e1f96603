import * as z from 'zod/mini';
import type { StoredCommand } from '../../commands/record';
import type { StepStore } from './step-store';

const sequenceRequest = z.object({ output: z.literal('follow_up_sequence') });

/**
 * What `DELETE /api/commands/{id}` erases beside a lead follow-up command
 * that planned a sequence: its follow-ups (they hold the same personal data
 * as the command), the tenant's own only. Other commands leave none.
 */
export function sequenceLeftovers(steps: Pick<StepStore, 'eraseForCommand'>): (command: StoredCommand) => Promise<string[]> {
  return async (command) => {
    if (command.type !== 'lead_follow_up' || !sequenceRequest.safeParse(command.request).success) return [];
    return steps.eraseForCommand(command.id, command.tenant_id);
  };
}
