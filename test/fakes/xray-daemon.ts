import { createSocket } from 'node:dgram';

/** A segment document the fake daemon received. */
export type SegmentDocument = Record<string, unknown> & { id: string; name: string; parent_id?: string; trace_id: string };

/** The X-Ray daemon's UDP side on 127.0.0.1: each datagram must be the protocol's header line and one JSON document. */
export interface FakeXRayDaemon {
  readonly address: { host: string; port: number };
  /** Every document received, in order. */
  readonly documents: SegmentDocument[];
  /** Datagrams that did not follow the protocol (their text). */
  readonly rejected: string[];
  close(): Promise<void>;
}

const HEADER = /^\{\s*"format"\s*:\s*"json"\s*,\s*"version"\s*:\s*1\s*\}\n/;

export async function startFakeXRayDaemon(): Promise<FakeXRayDaemon> {
  const socket = createSocket('udp4');
  const documents: SegmentDocument[] = [];
  const rejected: string[] = [];
  socket.on('message', (datagram) => {
    const text = datagram.toString('utf8');
    const header = HEADER.exec(text);
    try {
      if (!header) throw new Error('no header');
      documents.push(JSON.parse(text.slice(header[0].length)) as SegmentDocument);
    } catch {
      rejected.push(text);
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    address: { host: '127.0.0.1', port },
    documents,
    rejected,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
