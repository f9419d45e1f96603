/** One line naming the providers in use, without any credential. */
export function describeProviders(env: Record<string, string | undefined>): string {
  const llm = env.OPENAI_API_KEY
    ? `LLM openai (${env.OPENAI_MODEL ?? 'gpt-4o-mini'}${env.OPENAI_BASE_URL ? ` at ${new URL(env.OPENAI_BASE_URL).host}` : ''})`
    : 'LLM offline (deterministic writer; set OPENAI_API_KEY for a model)';
  return llm;
}
