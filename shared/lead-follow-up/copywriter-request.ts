import * as z from 'zod';
import { isUuid } from '../platform/ids';

const uuid = z.string().refine(isUuid, { message: 'Invalid UUID' });

/** The request of a copywriter job: which lead follow-up it refines, and with which agent. Only the sales phase queues it. */
export const copywriterRequestSchema = z
  .object({
    parentId: uuid,
    siteId: uuid,
    leadId: uuid,
    agentId: uuid,
  })
  .strict();

export type CopywriterRequest = z.infer<typeof copywriterRequestSchema>;
