import type { HttpEvent } from '../platform/http/types';

/**
 * The form parameters of a Twilio webhook's body (`application/x-www-form-urlencoded`, base64 when API Gateway encoded it); one
 * value per name.
 */
export function formParameters(event: HttpEvent): Record<string, string> {
  const raw = event.body === undefined ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  const params: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(raw)) params[name] = value;
  return params;
}
