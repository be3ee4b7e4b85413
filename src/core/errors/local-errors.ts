/**
 * Failures with no answer from Engage: input refused before sending, no sign-in, no connection, an
 * address or a quota Apps Script refused, a service too slow for the time left, a busy lock; and the
 * transport's and the refresh runner's own signals.
 */
import { describePrefixes, formatCount, quoted, withoutQuery } from '../util/text';
import { formatRetryTime } from '../util/dates';
import { EngageError } from './engage-error';

/** No HTTP answer arrived (DNS, refused connection, timeout), even after retries. */
export class ConnectionError extends EngageError {
  readonly code = 'CONNECTION_FAILED' as const;
  readonly operation: string | undefined;
  constructor(
    readonly reason: string,
    operation?: string,
  ) {
    super('ConnectionError');
    this.operation = operation;
  }
  userMessage(): string {
    return `Could not reach Engage (${this.reason}): check the connection and try again in a moment.`;
  }
}

/** Where to change an address, for messages about one. */
const ADDRESS_ADVICE = 'check the address in the Engage sidebar under Account > Settings';

/**
 * Apps Script refused to fetch an address outside the manifest's urlFetchWhitelist. A published
 * add-on's whitelist is fixed, so no later attempt can succeed: only another address can.
 */
export class AddressNotAllowedError extends EngageError {
  readonly code = 'ADDRESS_NOT_ALLOWED' as const;
  readonly address: string;
  constructor(
    url: string,
    readonly allowedPrefixes: readonly string[] = [],
    readonly operation?: string,
  ) {
    super('AddressNotAllowedError');
    this.address = withoutQuery(url);
  }
  userMessage(): string {
    const rule =
      this.allowedPrefixes.length > 0
        ? `this add-on may only call addresses that start with ${describePrefixes(this.allowedPrefixes)}`
        : "it is not in the add-on's urlFetchWhitelist";
    return `Apps Script refused to call ${this.address} because ${rule}: ${ADDRESS_ADVICE}.`;
  }
}

/** The address's host name does not resolve (DNS), or Apps Script refused the address as invalid; neither goes better with time. */
export class BadAddressError extends EngageError {
  readonly code: 'ADDRESS_NOT_FOUND' | 'INVALID_ADDRESS';
  readonly address: string;
  constructor(
    readonly reason: 'dns' | 'invalid',
    url: string,
    readonly operation?: string,
  ) {
    super('BadAddressError');
    this.code = reason === 'dns' ? 'ADDRESS_NOT_FOUND' : 'INVALID_ADDRESS';
    this.address = withoutQuery(url);
  }
  userMessage(): string {
    if (this.reason === 'dns') {
      const host = /^[a-z]+:\/\/([^/?#]+)/i.exec(this.address)?.[1] ?? this.address;
      return `The host ${host} could not be found (a DNS error), so Engage was not asked: ${ADDRESS_ADVICE}.`;
    }
    return `Apps Script refused ${this.address} as an invalid address: ${ADDRESS_ADVICE}.`;
  }
}

/**
 * Apps Script's daily quota of URL fetches for the Google account is spent: said by Apps Script
 * ("Service invoked too many times for one day: urlfetch."), or known from the add-on's own count
 * before sending (`local`). Quotas reset 24 hours after the first request of the day's window.
 */
export class FetchQuotaError extends EngageError {
  readonly code = 'FETCH_QUOTA_SPENT' as const;
  /** The daily quota, when the add-on knows which account type it runs for. */
  readonly limit: number | undefined;
  readonly resetAtMs: number | undefined;
  readonly local: boolean;
  private readonly nowMs: number | undefined;
  constructor(details: { limit?: number; resetAtMs?: number; nowMs?: number; local?: boolean }) {
    super('FetchQuotaError');
    this.limit = details.limit;
    this.resetAtMs = details.resetAtMs;
    this.nowMs = details.nowMs;
    this.local = details.local ?? false;
  }
  userMessage(): string {
    const when =
      this.resetAtMs !== undefined
        ? `try again after ${formatRetryTime(this.resetAtMs, this.nowMs)}`
        : 'try again tomorrow (Apps Script counts 24 hours from the first fetch)';
    const quota = this.limit !== undefined ? `daily quota of ${formatCount(this.limit)} URL fetches` : 'daily quota of URL fetches';
    return `Apps Script's ${quota} for this Google account is used up, so Engage was not asked: ${when}.`;
  }
}

/** The user already has as many triggers as Apps Script allows one user of this add-on (20: one per spreadsheet with an active schedule). */
export class TriggerQuotaError extends EngageError {
  readonly code = 'TRIGGER_QUOTA_FULL' as const;
  constructor(readonly limit: number) {
    super('TriggerQuotaError');
  }
  userMessage(): string {
    return (
      `You already have ${this.limit} Engage triggers, the most Apps Script allows one Google account (one for each spreadsheet with an active Engage schedule): ` +
      'pause or delete your schedules in a spreadsheet you no longer need, then save this schedule again.'
    );
  }
}

/** Where the owner of a spreadsheet decides what its formulas may use (the sidebar's Account tab). */
export const FORMULA_ACCESS_PLACE = 'in the Engage sidebar, under Account > Formulas in this spreadsheet';

/**
 * A formula asked for what the spreadsheet's owner does not allow formulas to use (their sign-in for
 * these publishers, their sign-in at all, or their API key): refused before anything is sent, with
 * who can allow it and where. `owner` is the owner's email as they set it; `unreadable`: their choice
 * could not be read, so nothing is allowed until they choose again.
 */
export class FormulaNotAllowedError extends EngageError {
  readonly code = 'FORMULA_NOT_ALLOWED' as const;
  constructor(
    readonly what: { publishers: readonly string[] } | 'sign-in' | 'api-key' | 'none-seen',
    readonly owner: string | undefined,
    readonly unreadable = false,
  ) {
    super('FormulaNotAllowedError');
  }
  userMessage(): string {
    const owner = this.owner ? `the spreadsheet's owner (${this.owner})` : "the spreadsheet's owner";
    if (this.unreadable)
      return `Formulas in this spreadsheet may use nothing for now: ${owner} chose what they may use, and that choice could not be read, so only the owner can choose again, ${FORMULA_ACCESS_PLACE}.`;
    const what = this.what;
    if (what === 'none-seen')
      return `None of the publishers ${owner} allows formulas to use is among those the owner's Engage sign-in sees: only the owner can change which, ${FORMULA_ACCESS_PLACE}.`;
    if (what === 'sign-in' || what === 'api-key') {
      const thing = what === 'sign-in' ? "its owner's Engage sign-in" : "its owner's recommendations API key";
      return `Formulas in this spreadsheet may not use ${thing}: ${owner} allows formulas no publisher, and only the owner can change that, ${FORMULA_ACCESS_PLACE}.`;
    }
    const one = what.publishers.length === 1;
    const ids = what.publishers.map(quoted).join(', ');
    return `Formulas in this spreadsheet may not report on publisher${one ? '' : 's'} ${ids}: ${owner} chose the publishers formulas may use, and only the owner can allow ${one ? 'it' : 'them'}, ${FORMULA_ACCESS_PLACE}.`;
  }
}

/**
 * Only the spreadsheet's owner may choose what its formulas use (they use the owner's sign-in).
 * `owner` is the owner's email, '' when Apps Script did not give it; `youUnknown`: Apps Script did
 * not give the caller's email, so whether the caller is the owner cannot be told.
 */
export class OwnerOnlyError extends EngageError {
  readonly code = 'OWNER_ONLY' as const;
  constructor(
    readonly owner: string,
    readonly youUnknown = false,
    /** What only the owner may do, and the way on for anyone else. */
    readonly task: { what: string; otherwise: string } = {
      what: "choose what its formulas may use, because they use the owner's Engage sign-in",
      otherwise: `ask the owner to change it ${FORMULA_ACCESS_PLACE}`,
    },
  ) {
    super('OwnerOnlyError');
  }
  userMessage(): string {
    const owner = this.owner ? `the owner of this spreadsheet, ${this.owner},` : 'the owner of this spreadsheet';
    const why = this.youUnknown ? ' (Google did not give Engage your email address, so it cannot tell whether that is you)' : '';
    return `Only ${owner} can ${this.task.what}${why}: ${this.task.otherwise}.`;
  }
}

/** Why a scheduled run could not reach a spreadsheet. */
export type UnreachableReason = 'no-document' | 'no-access' | 'deleted' | 'not-opened';

/** What each reason means, said of the spreadsheet (`it`: "it" in the sidebar's notice beside its name, "this spreadsheet" in its own statuses). */
const UNREACHABLE_WHY: Record<UnreachableReason, (it: string) => string> = {
  'no-document': (it) =>
    `Apps Script started the hourly run without ${it}, and this installation of Engage may open only the spreadsheet a run starts in (spreadsheetAccess "current")`,
  'no-access': (it) => `your Google account can no longer open ${it} (it was unshared, or your access was removed)`,
  deleted: (it) => `${it} is in the trash or was deleted`,
  'not-opened': (it) => `Engage could not open ${it}`,
};

/** What to do about it, for the saved reports' statuses there. */
const UNREACHABLE_ADVICE: Record<UnreachableReason, string> = {
  'no-document':
    'use Run now here, or ask whoever deployed Engage for spreadsheetAccess "all", which reaches a spreadsheet without its document',
  'no-access': 'ask its owner to share it with you again, or remove its schedules from the Schedules tab of any of your spreadsheets',
  deleted: "restore it from Google Drive's trash, or remove its schedules from the Schedules tab of any of your spreadsheets",
  'not-opened': 'the next hourly run tries again; open it and use Run now to refresh it sooner',
};

/**
 * A scheduled run could not reach one of the user's spreadsheets: no document in a run of an
 * installation limited to the current spreadsheet, the user lost access, the file was deleted, or
 * Apps Script refused to open it. Nothing was fetched or written for its reports; their data stays.
 */
export class SpreadsheetUnreachableError extends EngageError {
  readonly code = 'SPREADSHEET_UNREACHABLE' as const;
  constructor(
    readonly reason: UnreachableReason,
    /** Apps Script's own words, when it refused to open the spreadsheet. */
    readonly detail?: string,
  ) {
    super('SpreadsheetUnreachableError');
  }
  /** Why, said of the spreadsheet (`it`): "it is in the trash or was deleted". */
  why(it = 'it'): string {
    const why = UNREACHABLE_WHY[this.reason](it);
    return this.reason === 'not-opened' && this.detail ? `${why} (${this.detail})` : why;
  }
  /** The sentence each saved report of the spreadsheet shows as its last error. */
  userMessage(): string {
    return `Not refreshed, and its data was left as it was: ${this.why('this spreadsheet')}; ${UNREACHABLE_ADVICE[this.reason]}.`;
  }
}

export interface ValidationProblem {
  /** The parameter or argument at fault, for example "breakdowns". */
  argument: string;
  /** The whole sentence, starting with the argument: "breakdowns: 'referrer' and 'country' cannot be combined". */
  message: string;
}

/** Input refused locally, before anything was sent; names the argument, the value and the rule. */
export class ValidationError extends EngageError {
  readonly code = 'INVALID_ARGUMENT' as const;
  /** The first argument at fault. */
  readonly argument: string;
  readonly problems: readonly ValidationProblem[];
  constructor(problems: ValidationProblem[]) {
    super('ValidationError');
    if (problems.length === 0) throw new Error('ValidationError needs at least one problem');
    this.problems = problems;
    this.argument = problems[0]!.argument;
  }
  static single(argument: string, rule: string): ValidationError {
    return new ValidationError([{ argument, message: `${argument}: ${rule}` }]);
  }
  userMessage(): string {
    return this.problems.map((p) => p.message).join('; ');
  }
}

/**
 * A malformed filter; `position` is the 0-based index of the offending character. The message says
 * where only when the expression chains several conditions, to tell which one: the rule of a single
 * condition quotes what it is about, and "at character 1" would add nothing.
 */
export class FilterSyntaxError extends ValidationError {
  constructor(
    argument: string,
    readonly position: number,
    readonly expression: string,
    rule: string,
  ) {
    const where = expression.includes(';') ? ` at character ${position + 1} of ${quoted(expression)}` : '';
    super([{ argument, message: `${argument}: ${rule}${where}` }]);
    this.name = 'FilterSyntaxError';
  }
}

/** The service answered 2xx with a body the client cannot read. */
export class ResponseFormatError extends EngageError {
  readonly code = 'UNEXPECTED_RESPONSE' as const;
  constructor(
    readonly detail: string,
    readonly operation?: string,
    readonly traceId?: string,
  ) {
    super('ResponseFormatError');
  }
  userMessage(): string {
    const trace = this.traceId ? ` [trace ID ${this.traceId}]` : '';
    return `Engage answered ${this.operation ?? 'a request'} in an unexpected form (${this.detail}): try again later, and contact support if it persists${trace}.`;
  }
}

/** No token is stored or given. */
export class NotSignedInError extends EngageError {
  readonly code = 'NOT_SIGNED_IN' as const;
  constructor(readonly hint = 'sign in from the Engage sidebar with your Engage user name and password, or paste an API token') {
    super('NotSignedInError');
  }
  userMessage(): string {
    return `You are not signed in to Engage: ${this.hint}.`;
  }
}

/**
 * Refused locally: Engage answers so slowly that the next request (judged by the slowest one of this
 * execution) would not be back before the deadline. URL Fetch has no timeout, so a request that
 * outlives the execution is not cut short: Apps Script kills the whole execution ("Exceeded maximum
 * execution time") and the user learns nothing. Failing before sending says what happened instead.
 */
export class SlowServiceError extends EngageError {
  readonly code = 'TOO_SLOW' as const;
  constructor(
    readonly slowestRequestMs: number,
    readonly timeLeftMs: number,
    readonly operation?: string,
  ) {
    super('SlowServiceError');
  }
  userMessage(): string {
    const seconds = (ms: number) => `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
    return (
      `Engage is answering slowly (a request took ${seconds(this.slowestRequestMs)}, and ${seconds(this.timeLeftMs)} were left), so the rest of ${this.operation ?? 'the request'} ` +
      'was not asked for: try again in a few minutes, or ask for fewer rows (a formula has 30 seconds, Run to sheet in the sidebar 5 minutes).'
    );
  }
}

/** Shared state is locked by another execution for longer than we can wait. */
export class BusyError extends EngageError {
  readonly code = 'BUSY' as const;
  constructor(readonly what: string) {
    super('BusyError');
  }
  userMessage(): string {
    return `Another Engage request is busy with ${this.what}: try again in a few seconds.`;
  }
}

/**
 * Why no HTTP answer arrived. Only a 'connection' failure (a reset or refused connection, a timeout,
 * anything the adapter does not recognise) may go better on another attempt; the others are final:
 * the address is outside the manifest's whitelist, the user's daily URL Fetch quota is spent, the
 * address is not a valid one, or its host name does not resolve.
 */
export type TransportFailureKind = 'connection' | 'not-allowed' | 'daily-quota' | 'invalid-address' | 'dns';

/** What a transport adapter throws when no HTTP answer arrived. */
export class TransportError extends Error {
  readonly kind: TransportFailureKind;
  /** For 'not-allowed': the whitelist prefixes the address must start with, when the adapter knows them. */
  readonly allowedPrefixes: readonly string[] | undefined;
  constructor(message: string, options?: { cause?: unknown; kind?: TransportFailureKind; allowedPrefixes?: readonly string[] }) {
    super(message);
    this.name = 'TransportError';
    this.kind = options?.kind ?? 'connection';
    this.allowedPrefixes = options?.allowedPrefixes;
    if (options && 'cause' in options) (this as { cause?: unknown }).cause = options.cause;
  }
}

/** A scheduled report waits for the next run: its pages cannot all come before the deadline (`requests` in all). The runner catches it. */
export class RefreshDeferredError extends Error {
  constructor(
    message: string,
    readonly requests?: number,
  ) {
    super(message);
    this.name = 'RefreshDeferredError';
  }
}
