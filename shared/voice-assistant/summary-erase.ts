import type { StoredCommand } from '../commands/record';
import type { SiteWorkStore } from '../sites/site-work';

/**
 * What `DELETE /api/commands/{id}` erases beside a stakeholder command
 * whose call was summarized: the tasks and requirements its call made on
 * the site, the tenant's own only (they repeat what was said on the call).
 * Other commands leave none.
 */
export function callWorkLeftovers(
  siteWork: Pick<SiteWorkStore, 'eraseForCommand'>,
): (command: StoredCommand) => Promise<{ task_ids: string[]; requirement_ids: string[] }> {
  return async (command) => {
    if (command.type !== 'stakeholder_coordination' || command.site_id === undefined) return { task_ids: [], requirement_ids: [] };
    return siteWork.eraseForCommand({ tenantId: command.tenant_id, siteId: command.site_id }, command.id);
  };
}
