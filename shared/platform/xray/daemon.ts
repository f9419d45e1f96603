import { createSocket, type Socket } from 'node:dgram';

/** Where segment documents go: Lambda's X-Ray daemon, on UDP. */
export interface DaemonAddress {
  readonly host: string;
  readonly port: number;
}

const DEFAULT_DAEMON: DaemonAddress = { host: '127.0.0.1', port: 2000 };
/** Every datagram starts with this line (the daemon's protocol header). */
const HEADER = '{"format": "json", "version": 1}\n';

/**
 * Reads `AWS_XRAY_DAEMON_ADDRESS`: `host:port`, or `udp:host:port tcp:host:port`
 * (only the UDP address is used). Absent or unreadable: 127.0.0.1:2000.
 */
export function daemonAddress(value: string | undefined): DaemonAddress {
  if (!value?.trim()) return DEFAULT_DAEMON;
  const parts = value.trim().split(/\s+/);
  const udp = parts.find((part) => part.startsWith('udp:'))?.slice(4) ?? parts.find((part) => !part.startsWith('tcp:'));
  const match = udp ? /^(.+):(\d{1,5})$/.exec(udp) : null;
  if (!match) return DEFAULT_DAEMON;
  const port = Number(match[2]);
  return port > 0 && port < 65_536 ? { host: match[1]!, port } : DEFAULT_DAEMON;
}

/** Sends segment documents, one datagram each; fire and forget, as a trace must never fail the work it records. */
export interface SegmentSender {
  send(document: object): void;
  /** Closes the socket (tests; a function never needs to). */
  close(): void;
}

/** A sender to `address`; its socket is opened on the first document and never keeps the process alive. */
export function segmentSender(address: DaemonAddress): SegmentSender {
  let socket: Socket | undefined;
  return {
    send(document) {
      if (!socket) {
        socket = createSocket('udp4');
        socket.on('error', () => undefined);
        socket.unref();
      }
      socket.send(HEADER + JSON.stringify(document), address.port, address.host, () => undefined);
    },
    close() {
      socket?.close();
      socket = undefined;
    },
  };
}
