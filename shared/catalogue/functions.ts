import { FEATURES } from './features';
import { functionById, type DeclaredFunction, type FunctionDefinition } from './function-definitions';
import { JOB_TYPES } from './job-types';

export { isRouted, ROUTED_KINDS, type BundledFile, type WorkerBundle } from './function-spec';
export {
  functionById,
  type DeclaredFunction,
  type FunctionAccess,
  type FunctionDefinition,
  type FunctionId,
  type ScheduledFunctionId,
} from './function-definitions';

/** Every deployed function: each feature's functions behind routes or on a timer (features.ts order), then one worker per job type. */
export const FUNCTIONS: readonly FunctionDefinition[] = [
  ...FEATURES.flatMap((feature): readonly DeclaredFunction[] => feature.functions),
  ...JOB_TYPES.map((job) => job.worker),
].map((declared) => functionById(declared.id));
