import { apiRoute } from '../../shared/api/route';
import { platformDependencies } from '../../shared/composition/environment';
import { acceptLeadFollowUp } from '../../shared/lead-follow-up/accept';
import { readLeadFollowUpSettings } from '../../shared/lead-follow-up/settings';

const deps = { ...platformDependencies('leadFollowUpApi'), ...readLeadFollowUpSettings() };

/** POST /api/agents/sales/leadFollowUp: validate, check, record the command, queue the sales job. */
export const handler = apiRoute(deps, { bodyErrorCode: 'INVALID_REQUEST' }, ({ principal, body, headers }) =>
  acceptLeadFollowUp(deps, { principal, body, headers }),
);
