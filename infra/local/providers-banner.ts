/** One line naming the providers in use, without any credential. */
export function describeProviders(env: Record<string, string | undefined>): string {
  const llm = env.OPENAI_API_KEY
    ? `LLM openai (${env.OPENAI_MODEL ?? 'gpt-4o-mini'}${env.OPENAI_BASE_URL ? ` at ${new URL(env.OPENAI_BASE_URL).host}` : ''})`
    : 'LLM offline (deterministic writer; set OPENAI_API_KEY for a model)';
  return `${llm}; ${describeSearch(env)}`;
}

/** The credentials each search provider needs (docs/configuration.md "Settings"). */
const SEARCH_CREDENTIALS: Readonly<Record<string, readonly string[]>> = {
  google: ['GOOGLE_CSE_API_KEY', 'GOOGLE_CSE_ID'],
  brave: ['BRAVE_API_KEY'],
  perplexity: ['PERPLEXITY_API_KEY'],
};

/** The search chain in use (SEARCH_PROVIDERS order, providers without credentials skipped), or the local corpus. */
function describeSearch(env: Record<string, string | undefined>): string {
  const order = (env.SEARCH_PROVIDERS?.trim() || 'google,brave,perplexity').split(',').map((name) => name.trim().toLowerCase());
  const inUse = order.filter((name) => SEARCH_CREDENTIALS[name]?.every((key) => Boolean(env[key]?.trim())));
  if (inUse.length > 0) return `search ${inUse.join(' → ')}`;
  return 'search local-corpus (sample news; set BRAVE_API_KEY, PERPLEXITY_API_KEY or GOOGLE_CSE_API_KEY and GOOGLE_CSE_ID for web search)';
}

/** One line naming the telephony in use, without any credential. */
export function describeTelephony(env: Record<string, string | undefined>, local?: { baseUrl: string }): string {
  if (local)
    return `local telephony (no calls leave this machine; Twilio-compatible API at ${local.baseUrl}; answer calls with npm run call:local)`;
  const missing = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER'].filter((name) => !env[name]?.trim());
  if (missing.length > 0)
    return `none: Twilio is not configured (${missing.join(', ')} not set), calls fail with "telephony not configured"`;
  return `Twilio (calls from ${env.TWILIO_FROM_NUMBER}${env.TWILIO_API_BASE_URL ? ` at ${new URL(env.TWILIO_API_BASE_URL).host}` : ''})`;
}

/** One line naming the CRM the tenants' connections use: the local CRM, or HubSpot's address. */
export function describeCrm(env: Record<string, string | undefined>, local?: { baseUrl: string }): string {
  if (local) return `local (HubSpot-compatible, ${local.baseUrl}), holding the demo leads as contacts; nothing reaches HubSpot`;
  const base = env.HUBSPOT_API_BASE_URL?.trim();
  return `HubSpot at ${base ? new URL(base).host : 'api.hubapi.com'} (each tenant connects its own portal with PUT /api/integrations/hubspot)`;
}
