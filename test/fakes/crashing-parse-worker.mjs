// A page parse worker that dies on its first page, as a worker killed by a fault would.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => process.exit(3));
