import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { redriveDeadLetters } from '../../shared/commands/redrive';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

let services: EmbeddedServices;
beforeAll(async () => {
  services = await startEmbeddedServices();
});
afterAll(() => services.stop());

const depth = async (url: string) => {
  const { Attributes } = await services.aws.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages'] }));
  return Number(Attributes?.ApproximateNumberOfMessages ?? 0);
};

describe('redriveDeadLetters', () => {
  it('moves every dead letter back to its work queue, bodies unchanged, or only as many as asked', async () => {
    const { url, dlqUrl } = services.aws.queues.sales;
    const bodies = Array.from({ length: 13 }, (_, index) => JSON.stringify({ version: 1, n: index }));
    for (const body of bodies) await services.aws.sqs.send(new SendMessageCommand({ QueueUrl: dlqUrl, MessageBody: body }));

    expect(await redriveDeadLetters(services.aws.sqs, { from: dlqUrl, to: url, max: 4 })).toBe(4);
    expect(await depth(url)).toBe(4);
    expect(await redriveDeadLetters(services.aws.sqs, { from: dlqUrl, to: url })).toBe(9);
    expect(await depth(url)).toBe(13);
    expect(await depth(dlqUrl)).toBe(0);
    expect(await redriveDeadLetters(services.aws.sqs, { from: dlqUrl, to: url })).toBe(0);
    const received: string[] = [];
    for (let round = 0; round < 5 && received.length < 13; round++) {
      const { Messages = [] } = await services.aws.sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }));
      received.push(...new Map(Messages.map((message) => [message.MessageId, message.Body ?? ''])).values());
    }
    expect(received.sort()).toEqual([...bodies].sort());
  });
});
