/**
 * Saved reports: a report built in the sidebar, kept with its target cell and its schedule so the
 * hourly trigger can refresh it. A definition is checked here (every field, then the rules that tie
 * fields together), and turned into the report arguments of a refresh at a given time. Definitions
 * never hold a secret: no token, no password, no API key, only what the report asks for; where they
 * are kept is saved-report-store.ts.
 */
import * as z from '../../util/zod';
import { ValidationError } from '../../errors';
import type { WrittenBlock } from '../../ports';
import { ALL_METRICS } from '../../api/requests/report-metrics';
import type { ReportInput } from '../../api/requests/report-request';
import { controlCharacterIndex } from '../../util/text';
import { readCompareWith } from '../../api/requests/compare-periods';
import { periodSchema, resolvePeriod } from './period';
import { scheduleSchema } from './schedule';
import { alertProblems, alertsSchema, alertsWithoutChannel, noticesSchema } from './notice-settings';
import { REPORT_SPECS } from '../../spec';
import { type WriteMode, writeModeProblem } from './write-modes';
import { argumentOf, destinationSchema, loadsWholeDays, withDestination } from './destination-union';
import type { Backfill } from '../../warehouse/backfill';

const noControlCharacters = (v: string) => controlCharacterIndex(v) < 0;
const yesNo = () => z.boolean({ error: 'must be true or false' });

/** What a user gives when saving; the store adds id, owner and times. */
export const savedReportInputSchema = z.strictObject(
  {
    name: z
      .string({ error: 'is required' })
      .check(
        z.trim(),
        z.minLength(1, { error: 'is required' }),
        z.maxLength(100, { error: 'must be at most 100 characters' }),
        z.refine(noControlCharacters, { error: 'must not contain control characters' }),
      ),
    kind: z.enum(['main', 'externalId', 'realtime'], { error: "must be 'main', 'externalId' or 'realtime'" }),
    entityId: z
      .string({ error: 'is required: the publisher ID' })
      .check(z.trim(), z.minLength(1, { error: 'is required: the publisher ID' })),
    period: periodSchema,
    breakdowns: z.optional(
      z
        .array(z.string(), { error: 'must be a list of breakdown names such as ["day"]' })
        .check(z.maxLength(4, { error: 'has more than 4 breakdowns; a report allows at most 4' })),
    ),
    /** The metric columns, by API name. Left out (as in reports saved before metrics could be chosen): every metric. */
    metrics: z.optional(
      z
        .array(z.string(), { error: 'must be a list of metric names such as ["revenue", "rpmByPvs"]' })
        .check(z.minLength(1, { error: 'lists no metric: choose at least one, or leave the field out for every metric' })),
    ),
    filter: z.optional(z.string({ error: 'must be text' }).check(z.maxLength(2000, { error: 'must be at most 2000 characters' }))),
    sort: z.optional(z.string({ error: 'must be text' }).check(z.maxLength(100, { error: 'must be at most 100 characters' }))),
    currencyCode: z.optional(
      z
        .string({ error: 'must be a three-letter currency code such as USD' })
        .check(z.maxLength(3, { error: 'must be a three-letter currency code such as USD' })),
    ),
    decDigits: z.optional(z.int({ error: 'must be a whole number from 0 to 6' })),
    /** Rows per request; default the report's maximum (fewest requests). Bounded per report in checkSavedReport. */
    pageSize: z.optional(z.int({ error: 'must be a whole number' })),
    maxRows: z.optional(
      z
        .int({ error: 'must be a whole number from 1 to 100000' })
        .check(
          z.minimum(1, { error: 'must be a whole number from 1 to 100000' }),
          z.maximum(100_000, { error: 'must be a whole number from 1 to 100000' }),
        ),
    ),
    /**
     * Where its rows go: the sheet (its target cell and the sheet's write mode, row cap, incremental and
     * closed months) or another kind, whose target cell then shows its status (destination-union.ts).
     */
    destination: destinationSchema,
    schedule: scheduleSchema,
    /**
     * The general report beside an earlier period: "previous", "year", "yearWeekday" or "yyyy-MM-dd..yyyy-MM-dd"
     * (compare-periods.ts). Left out, as in reports saved before comparisons: no comparison.
     */
    compareWith: z.optional(
      z.string({ error: 'must be text such as "previous", "year", "yearWeekday" or "2026-10-01..2026-10-07"' }).check(
        z.trim(),
        z.maxLength(40, { error: 'must be at most 40 characters' }),
        z.refine((v) => !('argument' in readCompareWith(v, 'UTC')), {
          error: 'must be "previous", "year", "yearWeekday" or an earlier period as "2026-10-01..2026-10-07"',
        }),
      ),
    ),
    /** Append the Total row (not with incremental: totals of ratios cannot be merged). */
    totals: z.optional(yesNo()),
    paused: z.optional(yesNo()),
    /** When and how its refreshes are told (notice-settings.ts); left out: failures, by email. */
    notices: z.optional(noticesSchema),
    /** Rules on its figures, told through the same channels. */
    alerts: z.optional(alertsSchema),
  },
  { error: 'must be a saved report: an object with name, kind, entityId, period, destination and schedule' },
);
export type SavedReportInput = z.infer<typeof savedReportInputSchema>;

export interface SavedReport extends SavedReportInput {
  id: string;
  /** The random id of the user whose sign-in and trigger refresh it (not an email: no extra scope). */
  ownerId: string;
  createdAtMs: number;
  updatedAtMs: number;
}

/** What the last refresh of a saved report did; written by the runner, shown in the sidebar and the note. */
export interface RefreshStatus {
  /** When the report is next due (epoch ms). */
  nextRunAtMs?: number;
  lastAttemptAtMs?: number;
  lastSuccessAtMs?: number;
  rows?: number;
  durationMs?: number;
  /**
   * HTTP requests of the last successful refresh (before the first, what a deferred attempt's first
   * page showed it needs): the runner's estimate for the next one.
   */
  requests?: number;
  lastError?: { message: string; traceId?: string; atMs: number };
  /** Failures in a row since the last success. */
  failures?: number;
  /** The owner's sign-in was missing, expired or refused at the last attempt. */
  needsSignIn?: boolean;
  /** The cells the last write covered, so the next one clears leftovers and incremental merges read them. */
  written?: WrittenBlock;
  /** The mode `written` was written in, when not a replace: an append or upsert keeps its rows only then. */
  writtenAs?: WriteMode;
  /** Incremental reports: the last day (yyyyMMdd) the sheet holds data fetched for. */
  fetchedThrough?: string;
  /** A run refreshing it now holds it until then, so a concurrent run does not refresh it too. */
  runningUntilMs?: number;
  /**
   * A destination loaded day by day (a table's partitions): the days of the period being loaded, and the
   * next day to load (backfill.ts). A day is marked loaded only once its load is done, so a resumed
   * backfill never loads a day twice.
   */
  backfill?: Backfill;
  /**
   * When this status was written: the document's copy and the user's registry copy (registry.ts) are
   * kept in step by it, the newer winning. Statuses from before it count from their last attempt.
   */
  savedAtMs?: number;
}

/** When a status was written, for "the newer wins" between its two copies. */
export function statusStamp(status: RefreshStatus): number {
  return status.savedAtMs ?? status.lastAttemptAtMs ?? 0;
}

/** The report arguments of a saved report at `nowMs`, for buildReportQuery. */
export function reportInputOf(report: SavedReportInput, nowMs: number, range?: { fromDate: string; toDate: string }): ReportInput {
  const { fromDate, toDate } = range ?? resolvePeriod(report.period, nowMs);
  const input: ReportInput = { entityId: report.entityId, fromDate, toDate };
  if (report.breakdowns && report.breakdowns.length > 0) input.breakdowns = report.breakdowns;
  input.metrics = report.metrics ?? ALL_METRICS;
  if (report.filter) input.filter = report.filter;
  if (report.sort) input.sort = report.sort;
  if (report.currencyCode) input.currencyCode = report.currencyCode;
  if (report.decDigits !== undefined) input.decDigits = report.decDigits;
  if (report.pageSize !== undefined) input.limit = report.pageSize;
  return input;
}

/**
 * Rules that tie fields together; the report arguments themselves are checked by buildReportQuery.
 * `checkDestination` is the report's destination's own check (refresh/destination.ts), run first.
 */
export function checkSavedReport(input: unknown, checkDestination?: (report: SavedReportInput) => void): SavedReportInput {
  const parsed = savedReportInputSchema.safeParse(withDestination(input));
  if (!parsed.success) {
    throw new ValidationError(
      parsed.error.issues.flatMap((issue) => {
        const path = issue.path.map(String);
        if (issue.code === 'unrecognized_keys') {
          return issue.keys.map((key) => {
            const argument = argumentOf([...path, key]);
            return { argument, message: `${argument}: is not a field of a saved report` };
          });
        }
        const argument = path.length > 0 ? argumentOf(path) : 'report';
        return [{ argument, message: `${argument}: ${issue.message}` }];
      }),
    );
  }
  const report = parsed.data;
  checkDestination?.(report);
  const spec = REPORT_SPECS[report.kind];
  if (report.pageSize !== undefined && (report.pageSize < 1 || report.pageSize > spec.pageMax)) {
    throw ValidationError.single('pageSize', `${report.pageSize} must be a whole number from 1 to ${spec.pageMax} for the ${spec.title}`);
  }
  const hourly = REPORT_SPECS[report.kind].hourly;
  // An hourly report into a destination of whole days covers UTC days (its destination has refused 'lastHours').
  if (!(hourly && loadsWholeDays(report)) && hourly !== (report.period.type === 'lastHours')) {
    throw ValidationError.single(
      'period',
      hourly
        ? `the ${REPORT_SPECS[report.kind].title} covers hours: use 'lastHours' (1 to 24)`
        : "the general report covers days: use 'lastDays', 'thisMonth', 'lastMonth', 'since' or 'fixed'",
    );
  }
  if (report.compareWith !== undefined && report.kind !== 'main') {
    throw ValidationError.single('compareWith', 'compares the general report only: the hourly reports cover one day at most');
  }
  if (report.destination.closedThrough !== undefined) {
    if (!tracksRevisions(report)) {
      throw ValidationError.single(
        'closedThrough',
        'closes months of a daily report only: the general report broken down by day, without a comparison, whose revisions are tracked',
      );
    }
  }
  if (report.destination.incremental) {
    const problem = incrementalProblem(report);
    if (problem) throw ValidationError.single(problem.argument, problem.rule);
  }
  const modeProblem = writeModeProblem(report);
  if (modeProblem) throw ValidationError.single(modeProblem.argument, modeProblem.rule);
  if (report.alerts && report.alerts.length > 0) {
    const problems = alertProblems(report, report.alerts);
    if (problems.length > 0) throw new ValidationError(problems);
    const noChannel = alertsWithoutChannel(report);
    if (noChannel) throw ValidationError.single('alerts', noChannel);
  }
  return report;
}

/**
 * Why a report cannot refresh incrementally, or undefined when it can: the sidebar offers the option
 * only when this says nothing, and checkSavedReport refuses the same cases.
 */
export function incrementalProblem(
  report: Pick<SavedReportInput, 'kind' | 'breakdowns' | 'period' | 'maxRows' | 'totals' | 'compareWith'>,
): { argument: string; rule: string } | undefined {
  if (report.compareWith)
    return { argument: 'incremental', rule: 'cannot be combined with a comparison: both periods are fetched whole at each refresh' };
  if (report.kind !== 'main' || !(report.breakdowns && report.breakdowns.length > 0 ? report.breakdowns : ['day']).includes('day')) {
    return { argument: 'incremental', rule: 'needs the general report broken down by day: rows are merged by day' };
  }
  if (report.period.type === 'fixed')
    return { argument: 'incremental', rule: "needs a period that moves ('lastDays' or 'since'), not a fixed range" };
  if (report.maxRows !== undefined)
    return { argument: 'incremental', rule: 'cannot be combined with maxRows: a merge needs every row of each day' };
  if (report.totals) return { argument: 'totals', rule: 'cannot be combined with incremental: totals of rates cannot be merged' };
  return undefined;
}

/** A month can be closed once it has ended: closedThrough must be before the current UTC month at `nowMs`. */
export function checkClosedThrough(report: Pick<SavedReportInput, 'destination'>, nowMs: number): void {
  const { closedThrough } = report.destination;
  if (closedThrough === undefined) return;
  const now = new Date(nowMs);
  const latest = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  if (closedThrough > latest) {
    throw ValidationError.single(
      'closedThrough',
      `${closedThrough} has not ended yet: a month can be closed once it is over (the latest now is ${latest}, on UTC days)`,
    );
  }
}

/** Whether a saved report's refreshes are compared with the first figures seen (revisions.ts): the general report by day, without a comparison. */
export function tracksRevisions(report: Pick<SavedReportInput, 'kind' | 'breakdowns' | 'compareWith'>): boolean {
  const breakdowns = report.breakdowns && report.breakdowns.length > 0 ? report.breakdowns : ['day'];
  return report.kind === 'main' && breakdowns.includes('day') && !report.compareWith;
}
