import type { FunctionSpec } from './function-spec';
import type { LiveFields } from './live-fields';
import type { TableGrant } from './table';
import type { QueueSpec } from './work-queue';

/**
 * One job type, declared once: the command it runs, its queue and its
 * worker (with the worker's timeout), its queues and command type left
 * open: job-types.ts narrows them to the service's (`JobTypeDefinition`).
 * Accepting a command, child phases, the janitor, restart recovery, the
 * local runtime and the CDK app all read the gathered table.
 */
export interface JobTypeSpec<Queue extends string = string, Command extends string = string> {
  /** The job envelope's `type`. */
  type: string;
  /**
   * The command type whose phase this job runs; the job that starts a command of that type.
   * Absent for a job that runs without a command (a webhook delivery): its worker is a task
   * worker (shared/commands/task-worker.ts), which keeps its own state.
   */
  commandType?: Command;
  /** True when the command's first job is this one (the janitor and restart recovery queue it again). */
  startsCommand: boolean;
  /** True when event producers may put this job on its queue directly (without a command). */
  fromProducers: boolean;
  /**
   * What a command this job starts spends that its tenant's monthly caps limit (`monthly_tokens`, `monthly_searches`):
   * a tenant past a cap starts none. @default ['model_tokens']
   */
  spends?: readonly ('model_tokens' | 'searches')[];
  queue: QueueSpec<Queue>;
  worker: FunctionSpec<string, Queue> & { kind: 'worker' };
}

/** One HTTP route, its function left open: routes.ts narrows it to the service's (`RouteDefinition`). */
export interface RouteSpec<Fn extends string = string> {
  method: 'GET' | 'POST' | 'HEAD' | 'DELETE' | 'PATCH' | 'PUT';
  /** API Gateway route path; `{name}` segments are path parameters. */
  path: string;
  function: Fn;
}

/** The kernel function that erases a command and what its feature keeps with it (kernel.ts). */
export const ERASER_FUNCTION = 'deleteCommandApi';

/**
 * Everything one feature adds to the service, declared in one file of its
 * folder (`shared/<feature>/catalogue.ts`; the kernel's is kernel.ts) as
 * `{ ... } as const satisfies FeatureCatalogue`, so its ids stay literal
 * and the service's id unions (FunctionId, JobQueueId, CommandType) follow.
 * features.ts lists every feature's once; job-types.ts, functions.ts and
 * routes.ts derive the service's tables from that list, which the Lambda
 * code, the CDK app and the local runtime read.
 *
 * Adding a feature: its folder under shared/, this one catalogue file in it,
 * one line in features.ts, and a module per function it declares
 * (`functions/workers/<name>.ts` for a job type's worker,
 * `functions/api/<name>.ts` for a route's). A feature imports no other
 * feature, and a catalogue file imports only the catalogue's feature-free
 * files (test/unit/kernel-boundaries.test.ts).
 */
export interface FeatureCatalogue {
  /** Its job types, each with its queue and the worker that consumes it. */
  readonly jobTypes: readonly JobTypeSpec[];
  /** Its functions behind routes (api, webhook) and on a timer (scheduled); workers come with their job type. */
  readonly functions: readonly (FunctionSpec & { kind: 'api' | 'webhook' | 'scheduled' })[];
  /** Its HTTP routes, each answered by one of its own functions. */
  readonly routes: readonly RouteSpec[];
  /** The live fields of its command types, by command type. @default none */
  readonly liveFields?: { readonly [commandType: string]: LiveFields };
  /**
   * The table access `DELETE /api/commands/{id}` needs to erase what this
   * feature keeps with a command beside the command item (a sequence's
   * follow-ups), added to the kernel's eraser (`ERASER_FUNCTION`). The
   * feature erases them through the port its composition root hands the
   * eraser. @default nothing beside the command
   */
  readonly erasedWithCommand?: readonly TableGrant[];
}
