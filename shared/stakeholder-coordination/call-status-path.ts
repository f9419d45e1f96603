/**
 * Path of the status callback webhook (shared/catalogue/routes.ts); a module
 * of its own, so the webhook does not load the call worker's code.
 */
export const CALL_STATUS_PATH = '/webhooks/twilio/call-status';

/** Path of the `<Connect action>` webhook: Twilio reports there that a call's relay session ended. */
export const RELAY_ENDED_PATH = '/webhooks/twilio/relay-ended';
