import * as z from 'zod/mini';
import { readConfig } from '../platform/config';
import { OUTPUTS, type LeadFollowUpOutput } from './vocabulary';

/** Settings of the lead follow-up functions (docs/configuration.md "Settings"). */
export interface LeadFollowUpSettings {
  /** LEAD_FOLLOW_UP_OUTPUT: the `output` of a request that names none. @default 'channel_messages' */
  defaultOutput: LeadFollowUpOutput;
}

/** Reads the settings once, at cold start; a malformed value fails the start with its name. */
export function readLeadFollowUpSettings(env: Record<string, string | undefined> = process.env): LeadFollowUpSettings {
  const { LEAD_FOLLOW_UP_OUTPUT } = readConfig({ LEAD_FOLLOW_UP_OUTPUT: z.optional(z.enum(OUTPUTS)) }, env);
  return { defaultOutput: LEAD_FOLLOW_UP_OUTPUT ?? 'channel_messages' };
}
