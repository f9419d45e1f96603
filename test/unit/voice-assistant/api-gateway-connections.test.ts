import { apiGatewayConnections, type ManagementApiModule } from '../../../shared/voice-assistant/api-gateway-connections';
import { ConnectionGoneError } from '../../../shared/voice-assistant/connections';

/**
 * The @connections adapter against a stand-in of the management client's
 * module (the package is loaded from the Lambda runtime, not installed
 * here): what it sends, and how a gone socket is reported.
 */
function fakeModule(answer: (command: { kind: string; input: Record<string, unknown> }) => unknown) {
  const sent: { endpoint: string; kind: string; input: Record<string, unknown> }[] = [];
  const module: ManagementApiModule = {
    ApiGatewayManagementApiClient: class {
      constructor(private readonly config: { endpoint: string }) {}
      async send(command: unknown) {
        const typed = command as { kind: string; input: Record<string, unknown> };
        sent.push({ endpoint: this.config.endpoint, ...typed });
        const outcome = answer(typed);
        if (outcome instanceof Error) throw outcome;
        return outcome;
      }
    },
    PostToConnectionCommand: class {
      kind = 'post';
      constructor(readonly input: { ConnectionId: string; Data: Uint8Array }) {}
    },
    DeleteConnectionCommand: class {
      kind = 'delete';
      constructor(readonly input: { ConnectionId: string }) {}
    },
  };
  return { module, sent };
}

describe('apiGatewayConnections', () => {
  it('posts each message as JSON to the connection, and deletes it to close', async () => {
    const { module, sent } = fakeModule(() => ({}));
    const connections = apiGatewayConnections({ endpoint: 'https://abc.execute-api.eu-west-1.amazonaws.com/relay', load: () => module });
    await connections.send('conn-1', { type: 'text', token: 'Hello.', last: true });
    await connections.close('conn-1', 1008, 'unknown command');
    expect(sent.map((command) => [command.endpoint, command.kind, command.input.ConnectionId])).toEqual([
      ['https://abc.execute-api.eu-west-1.amazonaws.com/relay', 'post', 'conn-1'],
      ['https://abc.execute-api.eu-west-1.amazonaws.com/relay', 'delete', 'conn-1'],
    ]);
    expect(JSON.parse(Buffer.from(sent[0]!.input.Data as Uint8Array).toString('utf8'))).toEqual({
      type: 'text',
      token: 'Hello.',
      last: true,
    });
  });

  it('reports a socket that is gone (410 GoneException) as ConnectionGoneError, and other failures as they are', async () => {
    const gone = Object.assign(new Error('Gone'), { name: 'GoneException', $metadata: { httpStatusCode: 410 } });
    const throttled = Object.assign(new Error('Slow down'), { name: 'LimitExceededException', $metadata: { httpStatusCode: 429 } });
    let failure: Error = gone;
    const { module } = fakeModule(() => failure);
    const connections = apiGatewayConnections({ endpoint: 'https://x/relay', load: () => module });
    await expect(connections.send('conn-2', { type: 'end', handoffData: '{}' })).rejects.toBeInstanceOf(ConnectionGoneError);
    await expect(connections.close('conn-2', 1000, 'done')).rejects.toBeInstanceOf(ConnectionGoneError);
    failure = throttled;
    await expect(connections.send('conn-2', { type: 'end', handoffData: '{}' })).rejects.toBe(throttled);
  });
});
