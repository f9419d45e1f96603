import type { CommandPresenter } from '../api/command-responses';
import type { CallCommand, CallRecord } from '../calls/record';
import { readStakeholderCommand } from './command-object';
import { completedFromCommand } from './live';
import type * as z from 'zod';
import type { callSchema } from '../api/openapi/commands';
import type { StakeholderCoordinationRequest } from './schema';

/**
 * The call as a response shows it: the stored call, and when the request
 * listed more than one number, a note that only the first is called.
 */
export function callView(call: CallRecord, phoneNumbersGiven: number): z.input<typeof callSchema> {
  return {
    ...call,
    ...(phoneNumbersGiven > 1
      ? {
          note: `Only the first number (call.phone_number) is called; the other ${phoneNumbersGiven - 1} number${phoneNumbersGiven > 2 ? 's are' : ' is'} not dialled.`,
        }
      : {}),
  };
}

/**
 * What a stakeholder coordination shows of its command (the 202 answer,
 * and the `result` its worker stores): the conversation, the meeting
 * details, both system prompts, the context summary when the request asked
 * for it, the call when numbers were given, and the command object
 * (targets, supervisors, task, description, site_id). Read from the stored
 * command only, so a replayed request answers exactly as the first did.
 */
export function stakeholderData(
  command: CallCommand,
  request: Pick<StakeholderCoordinationRequest, 'include_context_summary' | 'phone_numbers'>,
): Record<string, unknown> {
  const { context, meeting, prompts } = readStakeholderCommand(command);
  return {
    conversation_id: context.conversation_id,
    meeting_details: { title: meeting.title, objective: meeting.objective },
    system_prompts: prompts,
    ...(request.include_context_summary ? { context_summary: context.summary } : {}),
    ...(command.call ? { call: callView(command.call, request.phone_numbers.length) } : {}),
    site_id: command.site_id,
    targets: command.targets,
    supervisors: command.supervisors,
    task: command.task,
    description: command.description,
  };
}

/**
 * How a stakeholder coordination shows its command to a POST caller: 202
 * with everything already known (prompts, context summary, a `pending`
 * call); once completed, 200 with the final meeting details and prompts
 * and the call as it is now.
 */
export function stakeholderPresenter(
  request: Pick<StakeholderCoordinationRequest, 'include_context_summary' | 'phone_numbers'>,
): CommandPresenter {
  return {
    accepted: (command) => stakeholderData(command, request),
    completed: (command: CallCommand) => ({
      success: true,
      data: {
        command_id: command.id,
        status: command.status,
        ...command.result,
        ...completedFromCommand(command),
        targets: command.targets,
        ...(command.call ? { call: callView(command.call, request.phone_numbers.length) } : {}),
        ...(command.warnings?.length ? { warnings: command.warnings } : {}),
      },
    }),
  };
}
