/**
 * Ids of the demo data `npm start` loads (infra/local/demo-data.json), used
 * as examples in request schemas' metadata. Plain strings: request schemas
 * that handlers bundle may carry them.
 */
export const DEMO_SITE_ID = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
export const DEMO_LEAD_ID = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
