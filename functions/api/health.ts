import { jsonResponse } from '../../shared/platform/http/responses';
import type { HttpResult } from '../../shared/platform/http/types';

/** GET /health: answers without a key, so load balancers and `npm start` checks can poll it. */
export const handler = async (): Promise<HttpResult> => jsonResponse(200, { status: 'ok' });
