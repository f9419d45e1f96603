import type { CallCommandFields } from '../calls/record';
import type { CommandKind } from '../commands/kind';
import { stakeholderCoordinationLive } from './live';
import { stakeholderProgressSchema, type StakeholderProgress } from './progress';
import { isE164PhoneNumber } from './phone-number';
import { readStakeholderCoordinationRequest, type StakeholderCoordinationRequest } from './schema';

/**
 * A stakeholder coordination command: its stored request is the canonical
 * parsed request, its progress the meeting details its worker settled on.
 */
export const stakeholderCoordinationKind: CommandKind<StakeholderCoordinationRequest, StakeholderProgress, CallCommandFields> = {
  type: 'stakeholder_coordination',
  request: { parse: (raw) => readStakeholderCoordinationRequest(raw, isE164PhoneNumber) },
  progress: stakeholderProgressSchema,
  live: stakeholderCoordinationLive,
};
