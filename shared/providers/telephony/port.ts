/** Who carried a call: Twilio, or the local telephony of `npm start` (labelled like the offline LLM). */
export type TelephonyProviderName = 'twilio' | 'local';

/** One outbound call to place. */
export interface OutboundCall {
  /** E.164 number to call. */
  to: string;
  /** TwiML the call runs once answered (connects it to the relay socket). */
  twiml: string;
  /** Absolute URL of `POST /webhooks/twilio/call-status` (may carry a query naming the command). */
  statusCallbackUrl: string;
  /** Seconds to let it ring. @default 30 */
  ringTimeoutSeconds?: number;
}

/** The provider's answer to a placed call. */
export interface PlacedCall {
  /** The provider's call id (Twilio `CA…`). */
  sid: string;
  /** The provider's status word (`queued`, ...). */
  status: string;
  provider: TelephonyProviderName;
}

/**
 * Port: places outbound calls. One attempt per call: the adapter never
 * retries a create (a retried create could ring twice); its caller decides.
 */
export interface Telephony {
  readonly provider: TelephonyProviderName;
  placeCall(call: OutboundCall): Promise<PlacedCall>;
}

/** A call the provider refused or could not take. The message is safe to store and show (no credentials). */
export class TelephonyError extends Error {
  constructor(
    message: string,
    /** Provider error code (Twilio 21211 invalid To, 20003 auth, ...). */
    readonly code?: number,
    /** HTTP status of the provider's answer; absent when none came (timeout, connection). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'TelephonyError';
  }
}
