import { createRequire } from 'node:module';
import { ConnectionGoneError, type RelayConnections } from './connections';
import type { OutboundMessage } from './protocol';

/** The part of `@aws-sdk/client-apigatewaymanagementapi` this adapter uses. */
export interface ManagementApiModule {
  ApiGatewayManagementApiClient: new (config: { endpoint: string; region?: string }) => { send(command: unknown): Promise<unknown> };
  PostToConnectionCommand: new (input: { ConnectionId: string; Data: Uint8Array }) => unknown;
  DeleteConnectionCommand: new (input: { ConnectionId: string }) => unknown;
}

/** The client package; not a dependency of this repository (see `loadFromRuntime`). */
const CLIENT_PACKAGE = '@aws-sdk/client-apigatewaymanagementapi';

/**
 * Loads the API Gateway management client from the Lambda runtime's own AWS
 * SDK (every nodejs runtime ships SDK v3, found through NODE_PATH), since
 * the package is not installed here: the name is resolved at run time, so
 * the bundler leaves it out. Pinning it means adding it to package.json and
 * importing it statically.
 */
function loadFromRuntime(): ManagementApiModule {
  const require = createRequire(import.meta.url);
  return require(CLIENT_PACKAGE) as ManagementApiModule;
}

/**
 * RelayConnections over API Gateway's `@connections` API
 * (`POST /@connections/{id}` to send, `DELETE` to close; 410 when the
 * socket is gone). `endpoint` is the WebSocket stage's https URL. API
 * Gateway closes without a code or reason, so `close` logs nothing itself:
 * its caller logs the reason.
 */
export function apiGatewayConnections(options: { endpoint: string; region?: string; load?: () => ManagementApiModule }): RelayConnections {
  let client: { send(command: unknown): Promise<unknown> } | undefined;
  let sdk: ManagementApiModule | undefined;
  const ready = () => {
    sdk ??= (options.load ?? loadFromRuntime)();
    client ??= new sdk.ApiGatewayManagementApiClient({ endpoint: options.endpoint, ...(options.region ? { region: options.region } : {}) });
    return { sdk, client };
  };
  const gone = (error: unknown): boolean => {
    const fields = error as { name?: unknown; $metadata?: { httpStatusCode?: unknown } } | undefined;
    return fields?.name === 'GoneException' || fields?.$metadata?.httpStatusCode === 410;
  };
  return {
    async send(connectionId, message: OutboundMessage) {
      const { sdk: api, client: http } = ready();
      try {
        await http.send(
          new api.PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(JSON.stringify(message), 'utf8') }),
        );
      } catch (error) {
        if (gone(error)) throw new ConnectionGoneError(connectionId);
        throw error;
      }
    },
    async close(connectionId) {
      const { sdk: api, client: http } = ready();
      try {
        await http.send(new api.DeleteConnectionCommand({ ConnectionId: connectionId }));
      } catch (error) {
        if (gone(error)) throw new ConnectionGoneError(connectionId);
        throw error;
      }
    },
  };
}
