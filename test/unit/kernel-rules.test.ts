import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { typeScriptFiles } from '../support/source-files';
import { COMMAND_ACCEPT_TABLE_GRANTS, COMMAND_START_TABLE_GRANTS, PRODUCER_JOB_TABLE_GRANTS } from '../../shared/catalogue/command-start';
import { FUNCTIONS } from '../../shared/catalogue/functions';
import { JOB_TYPES, QUEUES } from '../../shared/catalogue/job-types';
import { MAX_WAIT_SECONDS, maxWaitSecondsOf } from '../../shared/catalogue/limits';
import { ROUTES } from '../../shared/catalogue/routes';

/** The kernel's rules, checked against the code and the service catalogue. */
const ROOT = resolve(import.meta.dirname, '../..');

const runtimeFiles = [
  ...typeScriptFiles(join(ROOT, 'shared')),
  ...typeScriptFiles(join(ROOT, 'functions')),
  ...typeScriptFiles(join(ROOT, 'infra')),
];

describe('the command kernel', () => {
  it('ends commands in one place: only finishCommand calls the store’s complete or fail', () => {
    const callers = runtimeFiles
      .filter((file) => /\bcommands\.(complete|fail)\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(callers).toEqual(['shared/commands/finish.ts']);
  });

  it('builds command records in one place: only startCommand writes a new command', () => {
    const creators = runtimeFiles
      .filter((file) => /commands\.create\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(creators).toEqual(['shared/commands/start.ts']);
  });

  it('names queues only through the catalogue: no queue id is written as a string in runtime code', () => {
    const ids = QUEUES.map((queue) => queue.id);
    const offenders = runtimeFiles
      .filter((file) => !file.includes(`${join('shared', 'catalogue')}`))
      .flatMap((file) => {
        const text = readFileSync(file, 'utf8');
        return ids
          .filter((id) => new RegExp(`send(?:ToDeadLetter)?\\(\\s*'${id}'`).test(text))
          .map((id) => `${relative(ROOT, file)}: '${id}'`);
      });
    expect(offenders).toEqual([]);
  });
});

describe('the service catalogue', () => {
  it('gives every job type its own queue and worker, and every function module a build and a handler', () => {
    expect(new Set(JOB_TYPES.map((job) => job.queue.id)).size).toBe(JOB_TYPES.length);
    expect(new Set(JOB_TYPES.map((job) => job.worker.id)).size).toBe(JOB_TYPES.length);
    // Read, not imported (that loads every function's graph: seconds); the local runtime composes each from its build
    // (test/integration/local-compose.test.ts loads them all), Lambda calls its handler.
    for (const fn of FUNCTIONS) {
      const source = readFileSync(join(ROOT, fn.entry), 'utf8');
      const exports = {
        build: /^export (?:async )?function build\(/m.test(source),
        handler: /^export const handler = lambdaEntry\(build\);$/m.test(source),
      };
      expect([fn.id, exports]).toEqual([fn.id, { build: true, handler: true }]);
    }
  });

  it('caps every route’s Prefer: wait below its function’s timeout', () => {
    for (const route of ROUTES) {
      const fn = FUNCTIONS.find((candidate) => candidate.id === route.function)!;
      expect(maxWaitSecondsOf(route.function)).toBeLessThan(fn.timeoutSeconds);
      expect(maxWaitSecondsOf(route.function)).toBeLessThanOrEqual(MAX_WAIT_SECONDS);
    }
    expect(maxWaitSecondsOf('getCommandApi')).toBe(MAX_WAIT_SECONDS);
  });

  it('gives every function that starts a command the table access starting one takes (command-start.ts)', () => {
    const startingQueues = new Set<string>(JOB_TYPES.filter((job) => job.startsCommand).map((job) => job.queue.id));
    const accepting = FUNCTIONS.filter((fn) => fn.kind === 'api' && fn.access.sendsTo.some((queue) => startingQueues.has(queue)));
    expect(accepting.map((fn) => fn.id).sort()).toEqual([
      'crmConnectionApi',
      'deepResearchApi',
      // A reply starts the lead follow-up that drafts its answer.
      'leadEventsApi',
      'leadFollowUpApi',
      'stakeholderCoordinationApi',
    ]);
    // A reply's command is not held to its tenant's limits (the event it answers is recorded already): only what starting takes.
    for (const fn of accepting) {
      const expected = fn.id === 'leadEventsApi' ? COMMAND_START_TABLE_GRANTS : COMMAND_ACCEPT_TABLE_GRANTS;
      expect([fn.id, fn.access.table]).toEqual([fn.id, expect.arrayContaining([...expected])]);
    }
    const producerWorkers = JOB_TYPES.filter((job) => job.fromProducers).map((job) => job.worker);
    expect(producerWorkers.map((worker) => worker.id).sort()).toEqual(['researchWorker', 'salesWorker']);
    for (const worker of producerWorkers)
      expect([worker.id, worker.access.table]).toEqual([worker.id, expect.arrayContaining([...PRODUCER_JOB_TABLE_GRANTS])]);
  });
});
