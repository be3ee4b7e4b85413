/**
 * Every time budget of the add-on, in one place: how much of what Apps Script allows each kind of
 * execution takes, how that time is divided, and how long locks on shared state are waited for. Apps
 * Script ends a custom function after 30 seconds and any other execution (a sidebar call, the hourly
 * trigger) after 6 minutes, and a URL Fetch request cannot be cut short, so each budget leaves the time
 * the work after the last request needs, and no request starts that could not be back within it.
 */
import { MS_PER_MINUTE, MS_PER_SECOND } from './util/dates';

// ---- Apps Script's limits ----

/** Apps Script stops any execution but a custom function (a sidebar call, a trigger run) after 6 minutes. */
export const EXECUTION_LIMIT_MS = 6 * MS_PER_MINUTE;
/**
 * URL Fetch gives up on a request after about 60 s (platform notes; no timeout option exists): a rate
 * reservation left unsettled longer belongs to an execution that ended mid-fetch.
 */
export const FETCH_LONGEST_WAIT_MS = 60 * MS_PER_SECOND;

// ---- Custom functions (30 s in all) ----

/** A formula's whole work (fetching, the table, the cache write) ends by 27 of its 30 s; the rest is for Sheets to take the result. */
export const FORMULA_TIME_BUDGET_MS = 27 * MS_PER_SECOND;
/**
 * Milliseconds of a formula's deadline kept for building the table of what was fetched: no request
 * starts later than this before the deadline. Building the table of 100,000 rows of 33 columns takes
 * about 0.3 s (bench/RESULTS.md); 2 s leave room for wider tables and a slower machine.
 */
export const FORMULA_TABLE_RESERVE_MS = 2 * MS_PER_SECOND;
/** So fetching stops by 25 s: also the time an API call given no deadline has. */
export const FORMULA_FETCH_BUDGET_MS = FORMULA_TIME_BUDGET_MS - FORMULA_TABLE_RESERVE_MS;

// ---- Sidebar calls (6 minutes each) ----

/** Signing in with user name and password: one request, never retried. */
export const SIGN_IN_BUDGET_MS = 20 * MS_PER_SECOND;
/** The report builder's publisher picker. */
export const PUBLISHER_LIST_BUDGET_MS = 25 * MS_PER_SECOND;
/** The recommendations preview: one that takes longer is not worth waiting for. */
export const PREVIEW_TIME_BUDGET_MS = 30 * MS_PER_SECOND;
/** Run to sheet may take most of the execution; a minute is left for the write. */
export const SIDEBAR_RUN_BUDGET_MS = 5 * MS_PER_MINUTE;

// ---- Scheduled runs (6 minutes each) ----

/**
 * No request starts after this much of a run: a page in flight may take up to a minute (URL Fetch's
 * observed timeout) and the last write and statuses need seconds, so 4.5 minutes leave 1.5 to spare.
 */
export const RUN_FETCH_BUDGET_MS = 4.5 * MS_PER_MINUTE;
/** What a run needs after its last request starts: the answer (up to a minute) and the writes. */
export const RUN_WRAP_UP_MS = EXECUTION_LIMIT_MS - RUN_FETCH_BUDGET_MS;
/**
 * A run's notices may wait (a channel's pace of one post a second to a host, a 429's Retry-After: the
 * channels' pacing, src/core/channels/) until this long after its fetch deadline, well inside the
 * wrap-up's minute and a half.
 */
export const RUN_NOTICE_WAIT_MS = 20 * MS_PER_SECOND;
/** A run holds a report this long past its fetch deadline (longer than the wrap-up) before another run may take it over. */
export const RUN_CLAIM_SLACK_MS = 2 * MS_PER_MINUTE;

// ---- Refresh all and the hourly run: formulas in waves ----

/** Apps Script's quotas page: "Simultaneous executions per user: 30"; past it a formula shows "There are too many scripts running simultaneously ...". */
export const SIMULTANEOUS_EXECUTIONS_PER_USER = 30;
/**
 * Formulas one refresh wave makes compute at once, and so the most formulas one refresh cell serves:
 * 5 of the 30 are left for the execution driving the waves, a sidebar call and another document.
 */
export const REFRESH_WAVE_FORMULAS = 25;
/**
 * The longest a wave may take: a custom function has 30 s in all, and Sheets needs a moment to start
 * them. After it every formula of the wave has ended, counted or not, and the next wave may start.
 */
export const REFRESH_WAVE_LIMIT_MS = 35 * MS_PER_SECOND;
/** How often the driver reads how many formulas of its wave have ended (one document cache read). */
export const REFRESH_WAVE_POLL_MS = 100;
/** After the last formula of a wave counted its end, the moment it needs to finish returning its result. */
export const REFRESH_WAVE_GRACE_MS = 100;
/** A driver given no deadline may take this long: an open's simple trigger has 30 s in all. */
export const REFRESH_DEFAULT_BUDGET_MS = 25 * MS_PER_SECOND;
/** What the menu and the hourly run leave of their 6 minutes after the last wave: its writes, the last toast or log line. */
export const REFRESH_END_MARGIN_MS = 15 * MS_PER_SECOND;
/**
 * What a scheduled run may spend on formulas after its reports, over every spreadsheet it reached: a
 * spreadsheet opened by ID cannot read its formulas' counts and waits each wave's 35 s, and the day's
 * trigger runtime (90 minutes on a consumer account) is the reports' first. Waves with no time left
 * wait for the next refresh, the oldest refresh cells first.
 */
export const SCHEDULED_FORMULAS_BUDGET_MS = 2 * MS_PER_MINUTE;
/**
 * A formula counts its end in its refresh wave by this many ms after its work's own end (its second 28):
 * the last 2 of its 30 s stay Sheets', to take the result.
 */
export const WAVE_MARK_AFTER_WORK_MS = MS_PER_SECOND;
/** A formula waits this long for the document lock to count its end in its wave (then the driver waits the wave out). */
export const WAVE_MARK_LOCK_TIMEOUT_MS = 2 * MS_PER_SECOND;

// ---- Waiting for a lock on shared state ----

/** For another execution to finish updating a rate window. */
export const RATE_LOCK_TIMEOUT_MS = 5 * MS_PER_SECOND;
/** For the document lock that guards formula claims and the result cache's ledger. */
export const CLAIM_LOCK_TIMEOUT_MS = 5 * MS_PER_SECOND;
/** For the user lock before a quota count goes ahead without it (the count is a planning aid). */
export const QUOTA_LOCK_TIMEOUT_MS = 2 * MS_PER_SECOND;
/** For the document lock that guards the index of saved reports. */
export const SAVED_REPORTS_LOCK_TIMEOUT_MS = 10 * MS_PER_SECOND;
