import * as z from 'zod/mini';
import '../platform/zod-messages';
import { canonicalId } from '../platform/ids';

/**
 * The data file (`DATA_FILE`, `npm run data:import`): `{"sites": [site, …]}`.
 * Only `id` and `name` of each item are required; unknown fields are refused
 * so a typo never passes silently. UUID-shaped ids (sites, leads, users,
 * agents, visitors, …) are stored in lower case: they compare
 * case-insensitively.
 */
const id = z.pipe(z.string().check(z.trim(), z.minLength(1), z.maxLength(128)), z.transform(canonicalId));
const text = z.string().check(z.maxLength(10_000));
const isoDate = z.string().check(z.maxLength(64));
/** A string of at most `max` characters. */
const upTo = (max: number) => z.string().check(z.maxLength(max));

export const channelsSchema = z.strictObject({
  email: z.optional(z.strictObject({ enabled: z.boolean(), from: z.optional(upTo(320)) })),
  messaging_app: z.optional(z.strictObject({ enabled: z.boolean(), number: z.optional(upTo(32)) })),
});

export const userSchema = z.strictObject({ id, name: text, email: z.optional(upTo(320)) });
export const visitorSchema = z.strictObject({ id, name: z.optional(text) });

export const agentSchema = z.strictObject({
  id,
  name: text,
  role: z.optional(z.enum(['sales', 'copywriter', 'cmo'])),
  status: z.optional(z.enum(['active', 'inactive'])),
  user_id: z.optional(id),
  instructions: z.optional(text),
});

export const interactionSchema = z.strictObject({ date: isoDate, type: upTo(64), summary: text });

export const leadSchema = z.strictObject({
  id,
  name: text,
  company: z.optional(text),
  email: z.optional(upTo(320)),
  phone: z.optional(upTo(32)),
  position: z.optional(text),
  pain_points: z.optional(z.array(text).check(z.maxLength(50))),
  budget_range: z.optional(text),
  lead_stage: z.optional(upTo(64)),
  language: z.optional(upTo(16)),
  preferences: z.optional(z.record(z.string(), z.unknown())),
  interactions: z.optional(z.array(interactionSchema).check(z.maxLength(500))),
});

/** What every piece of the site's work starts with: its id, title and free-text status. */
const workItem = { id, title: text, status: z.optional(upTo(64)) };

export const taskSchema = z.strictObject({
  ...workItem,
  owner: z.optional(text),
  due_date: z.optional(isoDate),
  description: z.optional(text),
});

export const requirementSchema = z.strictObject({
  ...workItem,
  estimated_cost: z.optional(z.union([z.number(), upTo(64)])),
  priority: z.optional(upTo(32)),
  description: z.optional(text),
});

export const campaignSchema = z.strictObject({
  ...workItem,
  performance: z.optional(z.record(z.string(), z.unknown())),
});

export const contentSchema = z.strictObject({
  ...workItem,
  description: z.optional(text),
  target_completion: z.optional(isoDate),
});

export const siteSchema = z.strictObject({
  id,
  name: text,
  url: z.optional(upTo(2048)),
  /** The user who owns the site: the one a request acts for when it names no user. */
  owner_user_id: z.optional(id),
  channels: z.optional(channelsSchema),
  users: z.optional(z.array(userSchema)),
  visitors: z.optional(z.array(visitorSchema)),
  agents: z.optional(z.array(agentSchema)),
  leads: z.optional(z.array(leadSchema)),
  tasks: z.optional(z.array(taskSchema)),
  requirements: z.optional(z.array(requirementSchema)),
  campaigns: z.optional(z.array(campaignSchema)),
  content: z.optional(z.array(contentSchema)),
  resource_allocation: z.optional(z.record(z.string(), z.unknown())),
});

export const dataFileSchema = z.strictObject({ sites: z.array(siteSchema) }).check(
  z.superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.sites.forEach((site, index) => {
      if (seen.has(site.id)) ctx.addIssue({ code: 'custom', message: `duplicate site id "${site.id}"`, path: ['sites', index, 'id'] });
      seen.add(site.id);
      for (const kind of ['users', 'visitors', 'agents', 'leads', 'tasks', 'requirements', 'campaigns', 'content'] as const) {
        const ids = new Set<string>();
        (site[kind] ?? []).forEach((item, itemIndex) => {
          if (ids.has(item.id)) {
            ctx.addIssue({ code: 'custom', message: `duplicate ${kind} id "${item.id}"`, path: ['sites', index, kind, itemIndex, 'id'] });
          }
          ids.add(item.id);
        });
      }
    });
  }),
);

export type DataFile = z.infer<typeof dataFileSchema>;
export type SiteInput = z.infer<typeof siteSchema>;
export type Channels = z.infer<typeof channelsSchema>;
export type User = z.infer<typeof userSchema>;
export type Visitor = z.infer<typeof visitorSchema>;
export type Agent = z.infer<typeof agentSchema>;
export type Lead = z.infer<typeof leadSchema>;
export type Interaction = z.infer<typeof interactionSchema>;
export type Task = z.infer<typeof taskSchema>;
export type Requirement = z.infer<typeof requirementSchema>;
export type Campaign = z.infer<typeof campaignSchema>;
export type ContentItem = z.infer<typeof contentSchema>;

/** A site without its collections: what the site's own item holds. */
export interface Site {
  id: string;
  name: string;
  url?: string;
  /** The user who owns the site (a request that names no user acts for this one). */
  owner_user_id?: string;
  channels?: Channels;
  resource_allocation?: Record<string, unknown>;
}
