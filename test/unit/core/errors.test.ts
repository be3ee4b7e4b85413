/**
 * The error classes: each explains itself in one sentence, and the sentence is built from the
 * finished error, never from a subclass whose own fields are not set yet.
 */
import {
  ApiError,
  ConnectionError,
  FetchQuotaError,
  RateLimitError,
  ValidationError,
  type ApiErrorDetails,
  userMessage,
} from '../../../src/core/errors';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('ConnectionError and ValidationError', () => {
  it('explain themselves in one sentence', () => {
    expect(new ConnectionError('DNS error', 'GET /countries').message).toBe(
      'Could not reach Engage (DNS error): check the connection and try again in a moment.',
    );
    const v = ValidationError.single('breakdowns', "'referrer' and 'country' cannot be combined");
    expect(v.message).toBe("breakdowns: 'referrer' and 'country' cannot be combined");
    expect(v.argument).toBe('breakdowns');
    expect(v.code).toBe('INVALID_ARGUMENT');
  });
});

describe('EngageError messages', () => {
  it("are built after the whole error is constructed: a subclass's own fields are set whenever its message parts are read", () => {
    const seen: Array<string | undefined> = [];
    class QuotaHitError extends ApiError {
      readonly quotaName: string;
      constructor(details: ApiErrorDetails, quotaName: string) {
        super(details);
        this.quotaName = quotaName;
      }
      protected override summary(): string {
        seen.push(this.quotaName);
        return `the ${this.quotaName} quota was hit`;
      }
    }
    const error = new QuotaHitError({ status: 429, traceId: 'tr-1' }, 'hourly');
    expect(error.message).toBe('the hourly quota was hit: try again later, and contact support if it persists [trace ID tr-1].');
    expect(seen).not.toContain(undefined);
  });

  it('give a RateLimitError the limit it describes and the time to try again, from its own fields', () => {
    const error = new RateLimitError({
      status: 429,
      local: true,
      nowMs: NOW,
      retryAtMs: NOW + 90_000,
      limitDescription: 'only 3 of 9 rows could be fetched',
    });
    expect(error.message).toBe("Engage's rate limit was reached (only 3 of 9 rows could be fetched): try again after 12:01:30 UTC.");
    expect(error.message).toBe(error.userMessage());
    expect(String(error)).toBe(`RateLimitError: ${error.message}`);
  });

  it('are the same sentence whenever they are read', () => {
    const error = new FetchQuotaError({ limit: 20_000, resetAtMs: NOW + 3_600_000, nowMs: NOW });
    expect(error.message).toBe(
      "Apps Script's daily quota of 20,000 URL fetches for this Google account is used up, so Engage was not asked: try again after 13:00:00 UTC.",
    );
    expect(error.message).toBe(error.message);
  });
});

describe('userMessage of what Apps Script throws', () => {
  it("says when a spent daily quota renews instead of asking to try again, and keeps any other failure's words", () => {
    expect(userMessage(new Error('Service invoked too many times for one day: properties.'))).toBe(
      "Apps Script's daily quota of properties calls for your Google account is spent (it is shared by all your scripts): " +
        'it renews 24 hours after the first call of the day, so try again then.',
    );
    // Google's quotas page writes it without "for one day".
    expect(userMessage(new Error('Exception: Service invoked too many times: properties.'))).toBe(
      "Apps Script's daily quota of properties calls for your Google account is spent (it is shared by all your scripts): " +
        'it renews 24 hours after the first call of the day, so try again then.',
    );
    expect(userMessage(new Error('Service invoked too many times: premium urlfetch.'))).toMatch(
      /^Apps Script's daily quota of premium urlfetch calls/,
    );
    // The short-term limit is not a daily quota.
    expect(
      userMessage(new Error('Service invoked too many times in a short time: urlfetch. Try Utilities.sleep(1000) between calls.')),
    ).toMatch(/^Engage for Sheets failed unexpectedly/);
    expect(userMessage(new Error('Something else broke'))).toBe(
      'Engage for Sheets failed unexpectedly (Something else broke): try again, and report it if it persists.',
    );
  });
});
