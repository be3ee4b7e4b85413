/**
 * The root of the error hierarchy: every error the core throws for a user is an EngageError with a
 * machine-readable `code` and one sentence (`userMessage()`, which is also `message`). The sentence is
 * built when `message` is read, from the finished error: no constructor calls a method that a subclass
 * overrides, so none can read a subclass's fields before they are set. `userMessage(error)` turns
 * anything thrown into that one sentence.
 */
export type EngageErrorCode =
  | 'BAD_REQUEST'
  | 'AUTHENTICATION_FAILED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'RATE_LIMITED'
  | 'GATEWAY_TIMEOUT'
  | 'API_ERROR'
  | 'CONNECTION_FAILED'
  | 'INVALID_ARGUMENT'
  | 'UNEXPECTED_RESPONSE'
  | 'NOT_SIGNED_IN'
  | 'BUSY'
  | 'TOO_SLOW'
  | 'ADDRESS_NOT_ALLOWED'
  | 'ADDRESS_NOT_FOUND'
  | 'INVALID_ADDRESS'
  | 'FETCH_QUOTA_SPENT'
  | 'TRIGGER_QUOTA_FULL'
  | 'FORMULA_NOT_ALLOWED'
  | 'OWNER_ONLY'
  | 'SPREADSHEET_UNREACHABLE'
  | 'PERMISSION_NOT_GRANTED';

export abstract class EngageError extends Error {
  abstract readonly code: EngageErrorCode;
  /** One sentence for users: what happened and what to do next. */
  abstract userMessage(): string;
  /**
   * What failed, when the work covered several things (one publisher of a report of several):
   * "Publisher 'Daily Planet' (653e...)", put before the sentence. The class and code stay the cause's.
   */
  subject: string | undefined;
  /** No message goes to Error's constructor, so no own `message` property hides this getter. */
  constructor(name: string) {
    super();
    this.name = name;
  }
  override get message(): string {
    return this.subject === undefined ? this.userMessage() : `${this.subject}: ${this.userMessage()}`;
  }
}

/**
 * Apps Script's refusal of a service whose daily quota is spent: trying again soon cannot help, so the
 * sentence says when it can. Google's quotas page writes it "Service invoked too many times: <service>."
 * and users report "Service invoked too many times for one day: <service>."; both are read. The
 * short-term limit (too many calls "in a short time", whose message suggests a pause between them)
 * is not a daily quota and does not match.
 */
const DAILY_QUOTA_REFUSAL = /Service invoked too many times(?: for one day)?: ?(\w+(?: \w+)?)/;

/** One sentence for the user, whatever was thrown; never carries a secret. */
export function userMessage(error: unknown): string {
  if (error instanceof EngageError) return error.message;
  if (error && typeof error === 'object' && 'message' in error && typeof (error as Error).message === 'string') {
    const quota = DAILY_QUOTA_REFUSAL.exec((error as Error).message);
    if (quota)
      return (
        `Apps Script's daily quota of ${quota[1]} calls for your Google account is spent (it is shared by all your scripts): ` +
        'it renews 24 hours after the first call of the day, so try again then.'
      );
    return `Engage for Sheets failed unexpectedly (${(error as Error).message}): try again, and report it if it persists.`;
  }
  return 'Engage for Sheets failed unexpectedly: try again, and report it if it persists.';
}
