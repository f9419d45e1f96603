// Starts the embedded servers' thread from its TypeScript source (jest, tsx and `npm start` all run the runtime from source
// or from a build whose import.meta.url names the source): Node 20 gives a worker thread none of the parent's module hooks,
// so tsx is registered here. The servers' packages load first, natively: tsx then has only this folder's files to compile.
import 'dynalite';
import 'local-aws-sqs';
import { register } from 'tsx/esm/api';

register();
await import('./embedded-servers-thread.ts');
