import { lambdaEntry } from '../../shared/composition/lambda';
import { jsonResponse } from '../../shared/platform/http/responses';
import type { HttpResult } from '../../shared/platform/http/types';

/** GET and HEAD /health: answers without a key, so load balancers and `npm start` checks can poll it. It needs no adapter. */
export function build() {
  return async (): Promise<HttpResult> => jsonResponse(200, { status: 'ok' });
}

export const handler = lambdaEntry(build);
