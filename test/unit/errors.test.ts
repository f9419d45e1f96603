import { AppError, HTTP_STATUS_OF, isErrorCode, toErrorInfo } from '../../shared/platform/errors';

describe('error table', () => {
  it.each([
    ['INVALID_REQUEST', 400],
    ['NO_VALID_CHANNELS_FOR_LEAD', 400],
    ['UNAUTHORIZED', 401],
    ['FORBIDDEN', 403],
    ['COMMAND_NOT_FOUND', 404],
    ['NOT_FOUND', 404],
    ['METHOD_NOT_ALLOWED', 405],
    ['IDEMPOTENCY_CONFLICT', 409],
    ['INVALID_TRANSITION', 409],
    ['PAYLOAD_TOO_LARGE', 413],
    ['UNSUPPORTED_MEDIA_TYPE', 415],
    ['HEADERS_TOO_LARGE', 431],
    ['RATE_LIMITED', 429],
    ['SALES_COMMAND_FAILED', 500],
    ['SYSTEM_ERROR', 500],
  ] as const)('maps %s to %i', (code, status) => {
    expect(HTTP_STATUS_OF[code]).toBe(status);
    expect(new AppError(code, 'x').statusCode).toBe(status);
  });

  it('never shows the message of an unknown error', () => {
    const info = toErrorInfo(new Error('connect ECONNREFUSED 10.0.0.1 with secret sk-live-123456789'));
    expect(info).toEqual({ code: 'SYSTEM_ERROR', message: expect.not.stringContaining('sk-live') });
    expect(info.message).not.toContain('ECONNREFUSED');
  });

  it('keeps the code, message and details of an AppError', () => {
    const details = { configured_channels: ['email'], lead_has_email: false, lead_has_phone: true };
    expect(toErrorInfo(new AppError('NO_VALID_CHANNELS_FOR_LEAD', 'none', details))).toEqual({
      code: 'NO_VALID_CHANNELS_FOR_LEAD',
      message: 'none',
      details,
    });
  });

  it('recognises only codes of the table', () => {
    expect(isErrorCode('SITE_NOT_FOUND')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
  });
});
