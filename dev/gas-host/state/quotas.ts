/**
 * Apps Script's daily quotas the host enforces, per user whatever the document (kept in the
 * deployment): URL Fetch calls, trigger runtime, property reads and writes, and email recipients. The quotas page: quotas "are per user and reset
 * 24 hours after the first request", so a window opens with a user's first use and closes 24 hours later.
 */
import type { HostClock } from '../../shared/clock';

/** Apps Script's quotas page: URL Fetch calls a day, consumer accounts (100,000 on Workspace). */
export const URL_FETCH_CALLS_PER_DAY = 20_000;
/** Apps Script's quotas page: total trigger runtime a day, consumer accounts (6 h on Workspace). */
export const TRIGGER_RUNTIME_PER_DAY_MS = 90 * 60_000;
/** Apps Script's quotas page: "Properties read/write" a day, consumer accounts (500,000 on Workspace). */
export const PROPERTY_OPERATIONS_PER_DAY = 50_000;
/**
 * Apps Script's quotas page: "Email recipients per day (for example, with MailApp)", consumer accounts
 * (1,500 on Workspace). Every address a message goes to counts, cc and bcc too.
 */
export const MAIL_RECIPIENTS_PER_DAY = 100;
/** The quotas page: quotas "are per user and reset 24 hours after the first request". */
export const QUOTA_WINDOW_MS = 24 * 3_600_000;
/** Apps Script's words when the day's URL Fetch calls are spent (the quotas page's "Service invoked too many times"). */
export const URL_FETCH_QUOTA_MESSAGE = 'Service invoked too many times for one day: urlfetch.';
/** Apps Script's words when the day's trigger runtime is spent (seen in trigger failure reports; UNCONFIRMED on an official page). */
export const TRIGGER_RUNTIME_QUOTA_MESSAGE = 'Service using too much computer time for one day';

/**
 * Apps Script's words when the day's property reads and writes are spent: the quotas page's "Service
 * invoked too many times" with the service's name, as for URL Fetch (UNCONFIRMED for properties).
 */
export const PROPERTIES_QUOTA_MESSAGE = 'Service invoked too many times for one day: properties.';

/**
 * Apps Script's words when the day's email recipients are spent: the quotas page's "Service invoked too
 * many times" with the service's name, as users report it from MailApp.sendEmail (UNCONFIRMED on an
 * official page).
 */
export const MAIL_QUOTA_MESSAGE = 'Service invoked too many times for one day: email.';

export type DailyQuotaName = 'urlFetch' | 'triggerRuntime' | 'propertyOps' | 'mailRecipients';

/** One user's use of a daily quota: a window opened by the first use and closed 24 hours later. */
export interface QuotaWindow {
  startedAt: number;
  used: number;
}

/** Each user's daily quota windows, in every document, as the deployment holds them. */
export type QuotaWindowsByUser = Map<string, Partial<Record<DailyQuotaName, QuotaWindow>>>;

export class DailyQuotas {
  constructor(
    private readonly windows: QuotaWindowsByUser,
    private readonly limits: Record<DailyQuotaName, number>,
    private readonly clock: HostClock,
  ) {}

  /** What the user used of a daily quota in the open window (none open: 0, and no start). */
  dailyUse(user: string, quota: DailyQuotaName): { used: number; startedAt?: number } {
    const window = this.windows.get(user)?.[quota];
    return window && window.startedAt + QUOTA_WINDOW_MS > this.clock.now() ? { ...window } : { used: 0 };
  }

  /** Adds to the user's open window of a daily quota, opening one now when none is. */
  spendDaily(user: string, quota: DailyQuotaName, amount: number): void {
    let windows = this.windows.get(user);
    if (!windows) this.windows.set(user, (windows = {}));
    const open = this.dailyUse(user, quota);
    windows[quota] = { startedAt: open.startedAt ?? this.clock.now(), used: open.used + amount };
  }

  /** What is left of the user's daily quota now. */
  left(user: string, quota: DailyQuotaName): number {
    return this.limits[quota] - this.dailyUse(user, quota).used;
  }
}
