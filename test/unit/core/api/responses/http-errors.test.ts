import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  GatewayTimeoutError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '../../../../../src/core/errors';
import { errorFromResponse } from '../../../../../src/core/api/responses/http-errors';
import { errorResponse, jsonResponse } from '../../../../support/fakes';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('errorFromResponse', () => {
  it.each([
    [400, BadRequestError, 'BAD_REQUEST'],
    [401, AuthenticationError, 'AUTHENTICATION_FAILED'],
    [403, PermissionDeniedError, 'PERMISSION_DENIED'],
    [404, NotFoundError, 'NOT_FOUND'],
    [429, RateLimitError, 'RATE_LIMITED'],
    [504, GatewayTimeoutError, 'GATEWAY_TIMEOUT'],
    [500, ApiError, 'API_ERROR'],
  ])('maps %i to %p with code %s, carrying the body fields and the trace id', (status, cls, code) => {
    const error = errorFromResponse(errorResponse(status, 'Something failed', 'tr-42'), 'GET /reports/main', NOW);
    expect(error).toBeInstanceOf(cls);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status,
      code,
      moreInfo: 'operation',
      errorMessage: 'Something failed',
      traceId: 'tr-42',
      operation: 'GET /reports/main',
    });
    expect(error.message).toBe(error.userMessage());
    expect(error.message).toContain('[trace ID tr-42]');
  });

  it('renders one sentence that says what to do next', () => {
    expect(errorFromResponse(errorResponse(401, 'Token expired', 'abc'), 'GET /publishers').userMessage()).toBe(
      'Engage did not accept the sign-in (Token expired): sign in again from the Engage sidebar (a token lasts 30 days and ends when the password changes) [trace ID abc].',
    );
  });

  it('says when to try again after a 429 with rate-limit-msec-left', () => {
    const error = errorFromResponse(
      errorResponse(429, 'Too many requests', 't', { 'rate-limit-msec-left': '90000' }),
      'GET /reports/main',
      NOW,
    ) as RateLimitError;
    expect(error.retryAtMs).toBe(NOW + 90000);
    expect(error.message).toContain('try again after 12:01:30 UTC');
  });

  it('reads Retry-After in seconds when rate-limit-msec-left is absent', () => {
    const error = errorFromResponse(errorResponse(429, 'slow down', 't', { 'Retry-After': '5' }), 'x', NOW) as RateLimitError;
    expect(error.retryAtMs).toBe(NOW + 5000);
  });

  it('copes with a body that is not JSON', () => {
    const error = errorFromResponse({ status: 502, headers: {}, body: '<html>Bad gateway</html>' });
    expect(error.errorMessage).toBe('<html>Bad gateway</html>');
    expect(error.message).toContain('HTTP 502');
  });

  it('copes with an empty body', () => {
    expect(errorFromResponse(jsonResponse(404, '')).message).toBe(
      'Engage could not find what was asked for: check the publisher ID (entityId).',
    );
  });
});
