// Starts the page parse worker from its TypeScript source (under jest and `npm start`):
// Node 20 gives a worker thread none of the parent's module hooks, so tsx is registered here.
// The two parsing libraries load first, natively: tsx then has only this folder's files to compile.
import '@mozilla/readability';
import 'linkedom';
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
