/** The address of `npm start` from HOST and PORT, as it listens (a wildcard host is reached on loopback). */
export function localRuntimeUrl(env: Record<string, string | undefined> = process.env): string {
  const host = env.HOST?.trim() || '127.0.0.1';
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${env.PORT?.trim() || '3000'}`;
}
