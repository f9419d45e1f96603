import { v5 as uuidv5 } from 'uuid';

/** Namespace of follow-up ids: uuidv5(namespace, "<command id>#<position>"). */
const FOLLOW_UP_ID_NAMESPACE = '6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c';

/** The id of the follow-up at `position` (from 1) of a command: the same on every run. */
export function followUpId(commandId: string, position: number): string {
  return uuidv5(`${commandId}#${position}`, FOLLOW_UP_ID_NAMESPACE);
}
