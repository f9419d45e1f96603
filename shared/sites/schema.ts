import * as z from 'zod';
import { canonicalId } from '../platform/ids';

/**
 * The data file (`DATA_FILE`, `npm run data:import`): `{"sites": [site, …]}`.
 * Only `id` and `name` of each item are required; unknown fields are refused
 * so a typo never passes silently. UUID-shaped ids (sites, leads, users,
 * agents, visitors, …) are stored in lower case: they compare
 * case-insensitively.
 */
const id = z.string().trim().min(1).max(128).transform(canonicalId);
const text = z.string().max(10_000);
const isoDate = z.string().max(64);

export const channelsSchema = z
  .object({
    email: z
      .object({ enabled: z.boolean(), from: z.string().max(320).optional() })
      .strict()
      .optional(),
    messaging_app: z
      .object({ enabled: z.boolean(), number: z.string().max(32).optional() })
      .strict()
      .optional(),
  })
  .strict();

export const userSchema = z.object({ id, name: text, email: z.string().max(320).optional() }).strict();
export const visitorSchema = z.object({ id, name: text.optional() }).strict();

export const agentSchema = z
  .object({
    id,
    name: text,
    role: z.enum(['sales', 'copywriter', 'cmo']).optional(),
    status: z.enum(['active', 'inactive']).optional(),
    user_id: id.optional(),
    instructions: text.optional(),
  })
  .strict();

export const interactionSchema = z.object({ date: isoDate, type: z.string().max(64), summary: text }).strict();

export const leadSchema = z
  .object({
    id,
    name: text,
    company: text.optional(),
    email: z.string().max(320).optional(),
    phone: z.string().max(32).optional(),
    position: text.optional(),
    pain_points: z.array(text).max(50).optional(),
    budget_range: text.optional(),
    lead_stage: z.string().max(64).optional(),
    language: z.string().max(16).optional(),
    preferences: z.record(z.string(), z.unknown()).optional(),
    interactions: z.array(interactionSchema).max(500).optional(),
  })
  .strict();

export const taskSchema = z
  .object({
    id,
    title: text,
    status: z.string().max(64).optional(),
    owner: text.optional(),
    due_date: isoDate.optional(),
    description: text.optional(),
  })
  .strict();

export const requirementSchema = z
  .object({
    id,
    title: text,
    status: z.string().max(64).optional(),
    estimated_cost: z.union([z.number(), z.string().max(64)]).optional(),
    priority: z.string().max(32).optional(),
    description: text.optional(),
  })
  .strict();

export const campaignSchema = z
  .object({
    id,
    title: text,
    status: z.string().max(64).optional(),
    performance: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const contentSchema = z
  .object({
    id,
    title: text,
    status: z.string().max(64).optional(),
    description: text.optional(),
    target_completion: isoDate.optional(),
  })
  .strict();

export const siteSchema = z
  .object({
    id,
    name: text,
    url: z.string().max(2048).optional(),
    /** The user who owns the site: the one a request acts for when it names no user. */
    owner_user_id: id.optional(),
    channels: channelsSchema.optional(),
    users: z.array(userSchema).optional(),
    visitors: z.array(visitorSchema).optional(),
    agents: z.array(agentSchema).optional(),
    leads: z.array(leadSchema).optional(),
    tasks: z.array(taskSchema).optional(),
    requirements: z.array(requirementSchema).optional(),
    campaigns: z.array(campaignSchema).optional(),
    content: z.array(contentSchema).optional(),
    resource_allocation: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const dataFileSchema = z
  .object({ sites: z.array(siteSchema) })
  .strict()
  .superRefine((file, ctx) => {
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
  });

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
