/*
 * What a DynamoDB error means, read from its name and reasons alone: no SDK
 * is loaded, so code that only classifies errors stays light.
 */

/** True when a conditional write was refused because its condition did not hold. */
export function isConditionalCheckFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/**
 * The cancellation reason codes of a cancelled transaction, one per item in
 * order (`None`, `ConditionalCheckFailed`, `ValidationError`, …); undefined
 * for any other error.
 */
export function cancellationReasons(error: unknown): string[] | undefined {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return undefined;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return (reasons ?? []).map((reason) => reason.Code ?? 'None');
}

/**
 * True when DynamoDB refused a write because the item would pass its
 * 400 KB limit: a ValidationException saying "Item size has exceeded the
 * maximum allowed size" (PutItem, BatchWriteItem, or one value too large in
 * an UpdateItem) or "Item size to update has exceeded the maximum allowed
 * size" (UpdateItem), or a transaction cancelled with a `ValidationError`
 * reason saying the same. The same write can never succeed, so it is not
 * retried.
 */
export function isItemTooLarge(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ValidationException') return ITEM_TOO_LARGE.test(error.message);
  const reasons =
    error.name === 'TransactionCanceledException'
      ? (error as Error & { CancellationReasons?: { Code?: string; Message?: string }[] }).CancellationReasons
      : undefined;
  return (reasons ?? []).some((reason) => reason.Code === 'ValidationError' && ITEM_TOO_LARGE.test(reason.Message ?? ''));
}

const ITEM_TOO_LARGE = /item size (to update )?has exceeded the maximum allowed size/i;

/** What DynamoDB said of an item too large: the exception's message, or the refusing item's reason in a transaction. */
export function itemTooLargeMessage(error: Error): string {
  if (error.name !== 'TransactionCanceledException') return error.message;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string; Message?: string }[] }).CancellationReasons ?? [];
  const refused = reasons.find((reason) => reason.Code === 'ValidationError' && ITEM_TOO_LARGE.test(reason.Message ?? ''));
  return refused?.Message ?? error.message;
}
