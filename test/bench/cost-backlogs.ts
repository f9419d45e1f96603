import type { LocalRuntime } from '../../infra/local/runtime';
import type { FunctionId } from '../../shared/catalogue/functions';
import { ANALYSIS_LIMITS } from '../../shared/deep-research/analysis';
import { startFakeGoogle, type GoogleFake } from '../fakes/google';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai';
import { enqueueLeadFollowUps, mapInLanes, type Output } from './backlog';
import { answerAnalyses } from './analysis-answers';

/**
 * The kinds of command the cost bench (cost.ts) prices: how a backlog of
 * each is asked for, what the runtime needs to serve it, and how long each
 * of its jobs waits on providers at the stated latencies.
 */

/** The stated provider latencies a job waits on (ms). */
export const PROVIDER_LATENCY = {
  /** One model call of the sales writer (messages or a plan) and of the copywriter: about 500 output tokens each. */
  salesModelCall: 6_000,
  copywriterModelCall: 4_000,
  /** One batch of deep research's basic analysis: ten results, about 800 output tokens. */
  analysisModelCall: 5_000,
  /** One Google Custom Search request (a page of ten). */
  searchRequest: 400,
  /** The call phase's model call settling a meeting's title and objective (about 100 output tokens). */
  meetingDetailsModelCall: 2_000,
  /** Twilio's create of a call (REST, one request). */
  twilioCreateCall: 400,
  /** The post-call summary's model call (about 800 output tokens). */
  summaryModelCall: 8_000,
  /** One reply of the voice assistant streamed from the model, its relay invocation held meanwhile (about 60 tokens). */
  voiceReply: 1_500,
  /** One HubSpot CRM API request (a page of contacts, a batch read or write). */
  hubspotRequest: 300,
  /** Seconds of call time a turn takes (the stakeholder speaks, the reply is spoken): the relay socket's connection time. */
  turnSeconds: 15,
} as const;

/** A call's traffic besides its accept request and its jobs, over one pass: its webhooks and its relay socket. */
export interface CallTraffic {
  /** Twilio's status callbacks and relay session reports through the HTTP API, each an invocation of the status webhook function. */
  webhookRequests: number;
  /** Socket events the relay function ran on: `$connect`, each message in, `$disconnect`. */
  relayInvocations: number;
  /** Messages in (setup, prompts) and out (each spoken chunk, through `@connections`): API Gateway bills each. */
  relayMessagesIn: number;
  relayMessagesOut: number;
  /** Prompts the assistant answered, each a relay invocation waiting on the voice model. */
  replies: number;
  /** Minutes the relay sockets were open, at the stated length of a turn. */
  connectionMinutes: number;
}

/** Requests the providers' loopback fakes received in one pass, by provider. */
export type ProviderRequests = Readonly<Record<string, number>>;

/** One kind of command the bench prices. */
export interface Backlog {
  /** Its name in the tables. */
  name: string;
  /** The function its requests reach. */
  acceptFunction: FunctionId;
  /** Settings the runtime starts with (the providers it calls, on loopback). */
  settings(): Record<string, string | undefined>;
  /** Runs before anything is counted: what its commands need in place that none of them pays for (a tenant's CRM connection). */
  prepare?(runtime: LocalRuntime): Promise<void>;
  /** Asks for `count` of it through the HTTP API (each request new: no cache or idempotency answers it). */
  enqueue(runtime: LocalRuntime, count: number): Promise<void>;
  /** Requests its providers received so far. */
  providerRequests(): ProviderRequests;
  /**
   * How long one job on `queue` waits on providers (ms), given the requests counted per job of that queue
   * (`perJob`, by provider).
   */
  providerWaitMs(queue: string, perJob: ProviderRequests): number;
  /** How the waits are reckoned, for the bench's notes. */
  assumptions: string;
  /**
   * Runs once the workers are started, for commands that wait on more than jobs (a call answered and talked through);
   * resolves when they are done. `readCommand` reads a command item past the tally and the meter.
   */
  converse?(runtime: LocalRuntime, readCommand: (id: string) => Promise<Record<string, unknown> | undefined>): Promise<void>;
  /** The call traffic of the last pass. */
  callTraffic?(): CallTraffic;
  /** The queues whose jobs a `Prefer: wait` request waits through (every queue when absent). */
  waitsFor?: readonly string[];
  /** Stops what it started. */
  close(): Promise<void>;
}

/** Lead follow-ups of one output, on the offline writer (its waits are the stated model calls, one per job). */
export function leadFollowUpBacklog(output: Output): Backlog {
  return {
    name: output,
    acceptFunction: 'leadFollowUpApi',
    settings: () => ({ OPENAI_API_KEY: undefined }),
    enqueue: async (runtime, count) => {
      await enqueueLeadFollowUps(
        runtime,
        Array.from({ length: count }, () => output),
      );
    },
    providerRequests: () => ({}),
    providerWaitMs: (queue) =>
      queue === 'sales' ? PROVIDER_LATENCY.salesModelCall : queue === 'copywriter' ? PROVIDER_LATENCY.copywriterModelCall : 0,
    assumptions: `a model call of ${PROVIDER_LATENCY.salesModelCall / 1000} s (sales) and ${PROVIDER_LATENCY.copywriterModelCall / 1000} s (copywriter) a job`,
    close: async () => undefined,
  };
}

/**
 * Deep research, `general_news` with basic content analysis (30 results), served by Google and the model faked on
 * loopback: its waits are the search requests in turn, then the analysis batches, ANALYSIS_LIMITS.batchConcurrency at once.
 */
export async function deepResearchBacklog(): Promise<Backlog> {
  const [google, openai]: [GoogleFake, OpenAiFake] = await Promise.all([startFakeGoogle(), startOpenAiFake()]);
  answerAnalyses(openai);
  let run = 0;
  return {
    name: 'deep_research',
    acceptFunction: 'deepResearchApi',
    settings: () => ({
      GOOGLE_CSE_API_KEY: google.apiKey,
      GOOGLE_CSE_ID: google.engineId,
      GOOGLE_CSE_BASE_URL: google.baseUrl,
      GOOGLE_CSE_DAILY_QUOTA: '1000000',
      OPENAI_API_KEY: 'sk-bench-cost',
      OPENAI_BASE_URL: openai.baseUrl,
    }),
    enqueue: async (runtime, count) => {
      await mapInLanes(
        Array.from({ length: count }, () => (run += 1)),
        async (query) => {
          const response = await fetch(`${runtime.url}/api/deepResearch/operation`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': runtime.apiKey },
            body: JSON.stringify({ operation_type: 'general_news', query: `grid storage ${query}`, include_content_analysis: true }),
          });
          if (response.status !== 202) throw new Error(`Deep research answered ${response.status}: ${await response.text()}`);
        },
      );
    },
    providerRequests: () => ({ google: google.requests.length, model: openai.requests.length }),
    providerWaitMs: (queue, perJob) =>
      queue === 'research'
        ? (perJob.google ?? 0) * PROVIDER_LATENCY.searchRequest +
          Math.ceil((perJob.model ?? 0) / ANALYSIS_LIMITS.batchConcurrency) * PROVIDER_LATENCY.analysisModelCall
        : 0,
    assumptions:
      `a Google request of ${PROVIDER_LATENCY.searchRequest} ms (in turn) and an analysis model call of ` +
      `${PROVIDER_LATENCY.analysisModelCall / 1000} s (${ANALYSIS_LIMITS.batchConcurrency} at once)`,
    close: async () => {
      await Promise.all([google.close(), openai.close()]);
    },
  };
}
