import { CRM_CATALOGUE } from '../crm/catalogue';
import { DEEP_RESEARCH_CATALOGUE } from '../deep-research/catalogue';
import { LEAD_FOLLOW_UP_CATALOGUE } from '../lead-follow-up/catalogue';
import { STAKEHOLDER_COORDINATION_CATALOGUE } from '../stakeholder-coordination/catalogue';
import { VOICE_ASSISTANT_CATALOGUE } from '../voice-assistant/catalogue';
import { WEBHOOKS_CATALOGUE } from '../webhooks/catalogue';
import type { FeatureCatalogue } from './feature';
import { KERNEL_CATALOGUE } from './kernel';
import type { LiveFields } from './live-fields';

/**
 * Every feature's catalogue, the kernel's first: the one list the service
 * is derived from (JOB_TYPES and QUEUES in job-types.ts, FUNCTIONS in
 * functions.ts, ROUTES in routes.ts, live fields below), in the order the
 * functions and routes are listed. A new feature adds one line here.
 */
export const FEATURES = [
  KERNEL_CATALOGUE,
  LEAD_FOLLOW_UP_CATALOGUE,
  STAKEHOLDER_COORDINATION_CATALOGUE,
  DEEP_RESEARCH_CATALOGUE,
  VOICE_ASSISTANT_CATALOGUE,
  WEBHOOKS_CATALOGUE,
  CRM_CATALOGUE,
] as const satisfies readonly FeatureCatalogue[];

const CATALOGUES: readonly FeatureCatalogue[] = FEATURES;

/** The command types that keep live fields, and theirs (job-types.ts checks each is a command type). */
const LIVE_FIELDS: ReadonlyMap<string, LiveFields> = new Map(CATALOGUES.flatMap((feature) => Object.entries(feature.liveFields ?? {})));

/** The live fields of a command type (none when it keeps none); the kernel and the GET path read them here, never from a feature. */
export function liveFieldsOf(type: string): LiveFields | undefined {
  return LIVE_FIELDS.get(type);
}
