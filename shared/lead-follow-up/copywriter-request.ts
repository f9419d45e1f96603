import * as z from 'zod/mini';
import '../platform/zod-messages';
import { uuidSchema as uuid } from './schema';

/**
 * The request of a copywriter job: which lead follow-up it refines, and with
 * which agent. Only the sales phase queues it. Ids come back in lower case.
 */
export const copywriterRequestSchema = z.strictObject({
  parentId: uuid,
  siteId: uuid,
  leadId: uuid,
  agentId: uuid,
});

export type CopywriterRequest = z.infer<typeof copywriterRequestSchema>;
