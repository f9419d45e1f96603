/** Port: provider credentials by setting name (docs/configuration.md "Settings"). */
export interface SecretSource {
  /** The settings held by the given secrets; unset ones are absent. */
  read(names: readonly string[]): Promise<Record<string, string | undefined>>;
}

/** Locally, credentials are plain environment variables. */
export function environmentSecrets(env: Record<string, string | undefined> = process.env): SecretSource {
  return {
    async read(names) {
      return Object.fromEntries(names.map((name) => [name, env[name]?.trim() || undefined]));
    },
  };
}
