import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { flagsOf, type OpenSubsegment, type SubsegmentFields, type SubsegmentRecorder } from './subsegments';

interface NodeRequest {
  method?: string;
  protocol?: string;
  host?: string;
  path?: string;
  getHeader?(name: string): unknown;
}

interface UndiciRequest {
  method?: string;
  origin?: string | URL;
  path?: string;
}

/** A request's URL without its query (where providers such as Google take their API key) or fragment. */
function urlWithoutQuery(origin: string, path: string | undefined): string {
  return origin + (path ?? '/').replace(/[?#].*$/s, '');
}

function statusFields(status: number | undefined): SubsegmentFields {
  return status === undefined ? {} : { http: { response: { status } }, ...flagsOf(status) };
}

/**
 * Records each outgoing HTTP(S) request as a `remote` subsegment named after
 * its host, from Node's diagnostics channels: the `http`/`https` modules
 * (Twilio's client) and undici, under `fetch` (the model and search
 * clients, webhook deliveries). Nothing is patched, and no header is added
 * to a provider's request. An AWS SDK call's own request is left to its
 * `aws` subsegment, and calls to Lambda's runtime API are not recorded.
 * Returns the function that stops recording.
 */
export function captureOutgoingHttp(recorder: SubsegmentRecorder, runtimeApi = process.env.AWS_LAMBDA_RUNTIME_API): () => void {
  const open = new WeakMap<object, OpenSubsegment>();
  const start = (host: string, method: string, url: string, request: object) => {
    if (recorder.insideAwsCall() || (runtimeApi && url.includes(`//${runtimeApi}/`))) return;
    const subsegment = recorder.open(host, { namespace: 'remote', http: { request: { method, url } } });
    if (subsegment) open.set(request, subsegment);
  };
  const finish = (request: object, status: number | undefined, error?: unknown) => {
    const subsegment = open.get(request);
    if (!subsegment) return;
    open.delete(request);
    subsegment.close(statusFields(status), error);
  };
  const answered = (message: unknown) => {
    const { request, response } = message as { request: object; response: { statusCode?: number } };
    finish(request, response.statusCode);
  };
  const failed = (message: unknown) => {
    const { request, error } = message as { request: object; error: unknown };
    finish(request, undefined, error);
  };
  const channels: Record<string, (message: unknown) => void> = {
    'http.client.request.start': (message) => {
      const request = (message as { request: NodeRequest }).request;
      const origin = `${request.protocol ?? 'http:'}//${String(request.getHeader?.('host') ?? request.host ?? 'localhost')}`;
      start(request.host ?? 'localhost', request.method ?? 'GET', urlWithoutQuery(origin, request.path), request);
    },
    'http.client.response.finish': answered,
    'http.client.request.error': failed,
    'undici:request:create': (message) => {
      const request = (message as { request: UndiciRequest }).request;
      const origin = String(request.origin ?? 'http://localhost').replace(/\/$/, '');
      start(new URL(origin).hostname, request.method ?? 'GET', urlWithoutQuery(origin, request.path), request);
    },
    'undici:request:headers': answered,
    'undici:request:error': failed,
  };
  for (const [name, listener] of Object.entries(channels)) subscribe(name, listener);
  return () => {
    for (const [name, listener] of Object.entries(channels)) unsubscribe(name, listener);
  };
}
