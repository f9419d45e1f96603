/** A small fetch wrapper for tests against the local runtime. */
export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & {
    success?: boolean;
    data?: Record<string, unknown>;
    error?: { code: string; message: string; details?: unknown };
  };
  text: string;
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<JsonAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['x-api-key'] = options.key;
  let payload: string | undefined = options.rawBody;
  // A raw body is sent as JSON (malformed or not) unless the test names its type: fetch would call it text/plain.
  if (payload !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
  const text = await response.text();
  let body: JsonAnswer['body'] = {};
  try {
    body = JSON.parse(text) as JsonAnswer['body'];
  } catch {
    body = {};
  }
  return { status: response.status, headers: response.headers, body, text };
}
