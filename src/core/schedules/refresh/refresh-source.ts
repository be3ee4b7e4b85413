/**
 * What a refresh of saved reports is given and what it gives back: the API side it fetches through
 * (ReportSource: the owner's signed-in client and the shared budget) and the sum of a run
 * (RefreshSummary). The runner (refresh-runner.ts) and the helpers it calls for one report
 * (refresh-block.ts, compare-refresh.ts) all take them, so they live below all three.
 */
import type { ReportResult } from '../../api/paging/paging';
import type { ReportInput, ReportQuery } from '../../api/requests/report-request';
import type { ReportKind } from '../../spec';

/** What the runner needs from the API side: the owner's signed-in client and the shared budget. */
export interface ReportSource {
  /** Throws NotSignedInError or AuthenticationError when the sign-in is missing, expired or refused. */
  checkSignedIn(): void;
  buildQuery(kind: ReportKind, input: ReportInput): ReportQuery;
  /** Every page of a report, and the HTTP requests it took. A 401 marks the sign-in refused. */
  run(query: ReportQuery, options: { deadlineAtMs: number; maxRows?: number }): { result: ReportResult; requests: number };
  /** Every page of reports of one publisher together (a comparison's two periods), all or nothing, and the requests it took. */
  runTogether(queries: readonly ReportQuery[], options: { deadlineAtMs: number }): { results: ReportResult[]; requests: number };
  /** Earliest time `requests` report requests for the publisher (one, never "all" or a list) fit the shared budget. */
  budgetFreeAtMs(entityId: string, requests: number): number;
  /** Whether `requests` more URL fetches leave the share of the daily quota kept for the user's formulas. */
  fetchRoomFor(requests: number): boolean;
}

export interface RefreshSummary {
  refreshed: string[];
  failed: string[];
  /** Due but left for the next run: the budget or the time ran out. */
  deferred: string[];
  needsSignIn: boolean;
  requests: number;
  /** A daily quota, not the hour's time, left reports for later: URL fetches near the quota, or the day's trigger runtime. */
  stoppedBecause?: 'fetch-quota' | 'trigger-runtime';
}
