import type { CommandKind } from '../commands/kind';
import { copywriterRequestSchema, type CopywriterRequest } from './copywriter-request';
import {
  copywriterCommandProgressSchema,
  leadFollowUpProgressSchema,
  type CopywriterCommandProgress,
  type LeadFollowUpProgress,
} from './progress';
import { parseLeadFollowUpRequest, type LeadFollowUpRequest } from './schema';

/**
 * A lead follow-up command: its stored request is the canonical parsed
 * request (always with `output`), its progress the sales phase's output.
 */
export const leadFollowUpKind: CommandKind<LeadFollowUpRequest, LeadFollowUpProgress> = {
  type: 'lead_follow_up',
  request: { parse: (raw) => parseLeadFollowUpRequest(raw, 'channel_messages') },
  progress: leadFollowUpProgressSchema,
};

/** A copywriter command (phase 2 of a lead follow-up): which follow-up it refines, and the refinement. */
export const copywriterKind: CommandKind<CopywriterRequest, CopywriterCommandProgress> = {
  type: 'copywriter',
  request: copywriterRequestSchema,
  progress: copywriterCommandProgressSchema,
};
