import { followUpId } from '../../../../shared/lead-follow-up/follow-up-id';
import type { StoredStep } from '../../../../shared/lead-follow-up/sequences/step';

export const COMMAND = '019a0b1c-2d3e-7f40-8a1b-2c3d4e5f6a7b';
export const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
export const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
export const T0 = Date.parse('2026-12-01T09:00:00.000Z');
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** A stored step of COMMAND at `position`, scheduled `position` days after T0 unless told otherwise. */
export function step(position: number, overrides: Partial<StoredStep> = {}): StoredStep {
  return {
    id: followUpId(COMMAND, position),
    type: 'email',
    subject: `Step ${position}: a next step for your team`,
    content: `Hi Jordan, this is step ${position} of our plan.`,
    scheduled_for: new Date(T0 + position * DAY).toISOString(),
    status: 'scheduled',
    site_id: SITE,
    lead_id: LEAD,
    user_id: null,
    metadata: { next_steps: 'Call back', lead_stage: 'qualified', sequence_position: position, template_used: 'email_follow_up' },
    tenant_id: 'tenant-a',
    command_id: COMMAND,
    created_at: new Date(T0).toISOString(),
    ...overrides,
  };
}
