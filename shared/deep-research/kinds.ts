import type { CommandKind } from '../commands/kind';
import { deepResearchProgressSchema, type DeepResearchProgress } from './progress';
import { deepResearchRequestParser, type DeepResearchRequest } from './schema';

/**
 * A deep research command: its stored request is the canonical parsed
 * request (defaults filled in), its progress the search's outcome.
 */
export const deepResearchKind: CommandKind<DeepResearchRequest, DeepResearchProgress> = {
  type: 'deep_research',
  request: deepResearchRequestParser,
  progress: deepResearchProgressSchema,
};
