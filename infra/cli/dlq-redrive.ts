import { parseArgs } from 'node:util';
import { GetQueueUrlCommand } from '@aws-sdk/client-sqs';
import { QUEUES, type QueueDefinition } from '../../shared/catalogue/job-types';
import { redriveDeadLetters } from '../../shared/commands/redrive';
import { createSqsClient } from '../../shared/platform/sqs';
import { fail } from './table';

const USAGE = `Usage: npm run dlq:redrive -- QUEUE [--max N]

QUEUE is one of: ${QUEUES.map((queue) => queue.id).join(', ')}.
Queue URLs come from <QUEUE>_QUEUE_URL and <QUEUE>_DLQ_URL (the deployed stack's outputs),
or, with AWS_ENDPOINT_URL_SQS set to the embedded SQS of \`npm start\`, from its queue names.`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { max: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
if (values.help || positionals.length !== 1) fail(USAGE);
const queue = QUEUES.find((candidate) => candidate.id === positionals[0]);
if (!queue) fail(`Unknown queue "${positionals[0]}".\n\n${USAGE}`);
const max = values.max === undefined ? undefined : Number(values.max);
if (max !== undefined && !(Number.isInteger(max) && max > 0)) fail('--max must be a positive whole number.');

if (process.env.AWS_ENDPOINT_URL_SQS) {
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
}
const sqs = createSqsClient();
const urls = await queueUrls(queue);
const { moved, skipped } = await redriveDeadLetters(sqs, { from: urls.dlq, to: urls.queue, ...(max ? { max } : {}) });
process.stdout.write(`Moved ${moved} job(s) from the ${queue.id} dead-letter queue back to its queue.\n`);
if (skipped > 0) process.stdout.write(`${skipped} job(s) were dead-lettered again during this run and stay on the dead-letter queue.\n`);
sqs.destroy();

async function queueUrls(definition: QueueDefinition): Promise<{ queue: string; dlq: string }> {
  const fromEnv = { queue: process.env[definition.urlEnvVar], dlq: process.env[definition.dlqUrlEnvVar] };
  if (fromEnv.queue && fromEnv.dlq) return { queue: fromEnv.queue, dlq: fromEnv.dlq };
  if (!process.env.AWS_ENDPOINT_URL_SQS)
    fail(`Set ${definition.urlEnvVar} and ${definition.dlqUrlEnvVar}, or AWS_ENDPOINT_URL_SQS for the local runtime.`);
  const lookup = async (name: string) => (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl!;
  return { queue: await lookup(definition.localName), dlq: await lookup(`${definition.localName}-dlq`) };
}
