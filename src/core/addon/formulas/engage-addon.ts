/**
 * The add-on's use cases for one execution, driven by ports: the user's session (session.ts: signing
 * in and out, settings, quotas, calls with the stored sign-in), the results of the ENGAGE_* formulas,
 * cached and computed once for identical formulas (formula-cache.ts) and each first checked against
 * what the spreadsheet's owner lets formulas use (formula-policy.ts), and the sidebar's
 * recommendations preview. Entry points build one EngageAddon per execution with the Apps Script
 * adapters; tests build it with fakes or run the bundle in the local host.
 */
import type { ReportInput } from '../../api/requests/report-request';
import { RateLimitError } from '../../errors';
import type { BatchCache, Cell, Compressor } from '../../ports';
import {
  fetchRecommendations,
  RECOMMENDATIONS_RESULT_TTL_SECONDS,
  recommendationsInput,
  recommendationsTable,
  type RawRecommendationsInput,
  type RecommendationsDeps,
} from '../../recommendations/recommendations';
import { recommendationsPreview, type RecommendationsPreview } from '../../recommendations/preview';
import { buildExplanation, type ExplainInput } from '../../explain/explain-request';
import { buildExplainTable } from '../../explain/explain-table';
import { buildCompareTable, compareTableOptions } from '../../sheets/compare-table';
import { lookupTable } from '../../sheets/lookup-table';
import { reportResultToTable, tableToValues } from '../../sheets/report-table';
import { LOOKUPS, type LookupKind, type ReportKind } from '../../spec';
import { hashText } from '../../util/hash';
import { checkedComparison } from '../session/comparisons';
import { FormulaCache, RESULT_TTL_SECONDS } from './formula-cache';
import { FormulaGate, readFormulaPolicy } from './formula-policy';
import { EngageSession, type SessionDeps } from '../session/session';

export interface AddonDeps extends SessionDeps {
  /** The document cache: formula results and claims, and the report rate windows of this document. */
  documentCache: BatchCache;
  /** Compresses cached formula results. */
  compressor: Compressor;
  /**
   * The spreadsheet's ID: a formula reads its owner's choice of what formulas may use under it, in
   * the owner's user properties (formula-policy.ts). Left out: every publisher.
   */
  spreadsheetId?: string;
}

export interface FormulaOptions {
  /** Any value; a change makes a new request instead of a cached answer. */
  refresh?: unknown;
  /** Epoch ms by which the formula's whole work must be done: fetching, the table, the cache write. */
  deadlineAtMs: number;
}

export interface FormulaReportOptions extends FormulaOptions {
  maxRows?: number;
}

export class EngageAddon {
  readonly session: EngageSession;
  private readonly results: FormulaCache;
  private formulaGate: FormulaGate | undefined;

  constructor(private readonly deps: AddonDeps) {
    this.session = new EngageSession(deps);
    this.results = new FormulaCache({
      cache: deps.documentCache,
      compressor: deps.compressor,
      lock: deps.documentLock,
      clock: deps.clock,
      sleeper: deps.sleeper,
    });
  }

  /** A report as sheet values (header, rows, totals), cached and shared between identical formulas. */
  formulaReport(kind: ReportKind, input: ReportInput, options: FormulaReportOptions): Cell[][] {
    const { session } = this;
    const query = session.buildQuery(kind, input);
    const gate = this.gate();
    gate.publishers(query.publishers ?? { type: 'one', id: query.entityId });
    const engage = session.signedIn({ listedPublishers: gate.listed });
    const identity = [
      'report',
      session.reportingBaseUrl(),
      engage.tokenHash,
      kind,
      query.params,
      query.breakdowns,
      query.metrics,
      options.maxRows ?? null,
      this.deps.timeZone,
      options.refresh ?? null,
      gate.fingerprint(),
    ];
    return this.results.computeOnce(identity, RESULT_TTL_SECONDS[kind], options.deadlineAtMs, (fetchByMs) => {
      const result = engage.runReport(query, {
        deadlineAtMs: fetchByMs,
        allOrNothing: true,
        ...(options.maxRows !== undefined ? { maxRows: options.maxRows } : {}),
      });
      if (result.stoppedBecause === 'rateLimit') {
        throw new RateLimitError({
          status: 429,
          local: true,
          nowMs: this.deps.clock.now(),
          limitDescription: `only ${result.items.length} of ${result.totalItems} rows could be fetched within the 30 report requests a minute`,
          ...(result.retryAtMs !== undefined ? { retryAtMs: result.retryAtMs } : {}),
        });
      }
      return tableToValues(reportResultToTable(result, { timeZone: this.deps.timeZone }));
    });
  }

  /**
   * ENGAGE_COMPARE: the general report beside an earlier period (compare-table.ts), both periods
   * fetched together and whole, cached under both periods' requests and computed once, as a report.
   */
  formulaCompare(input: ReportInput, compareWith: unknown, options: FormulaReportOptions): Cell[][] {
    const { session } = this;
    const comparison = checkedComparison(session, this.deps.timeZone, input, compareWith);
    const gate = this.gate();
    gate.publishers(comparison.current.publishers ?? { type: 'one', id: comparison.current.entityId });
    const engage = session.signedIn({ listedPublishers: gate.listed });
    const { current, earlier, metrics } = comparison;
    const identity = [
      'compare',
      session.reportingBaseUrl(),
      engage.tokenHash,
      current.params,
      earlier.params,
      current.breakdowns,
      metrics,
      options.maxRows ?? null,
      this.deps.timeZone,
      options.refresh ?? null,
      gate.fingerprint(),
    ];
    return this.results.computeOnce(identity, RESULT_TTL_SECONDS.main, options.deadlineAtMs, (fetchByMs) => {
      const [now, before] = engage.runTogether([current, earlier], { deadlineAtMs: fetchByMs });
      return tableToValues(buildCompareTable(now!, before!, compareTableOptions(comparison, this.deps.timeZone, options.maxRows)));
    });
  }

  /**
   * ENGAGE_EXPLAIN: the change of one metric between the two periods of a comparison, split by key
   * (explain-table.ts), its requests and cache as ENGAGE_COMPARE's: both periods fetched together and
   * whole, computed once and cached under both periods' requests.
   */
  formulaExplain(input: ExplainInput, options: FormulaOptions): Cell[][] {
    const { session } = this;
    const { comparison, metric, topN } = buildExplanation(input, this.deps.timeZone, (i) => session.buildQuery('main', i));
    const gate = this.gate();
    gate.publishers(comparison.current.publishers ?? { type: 'one', id: comparison.current.entityId });
    const engage = session.signedIn({ listedPublishers: gate.listed });
    const { current, earlier } = comparison;
    const identity = [
      'explain',
      session.reportingBaseUrl(),
      engage.tokenHash,
      current.params,
      earlier.params,
      current.breakdowns,
      metric.name,
      topN,
      this.deps.timeZone,
      options.refresh ?? null,
      gate.fingerprint(),
    ];
    return this.results.computeOnce(identity, RESULT_TTL_SECONDS.main, options.deadlineAtMs, (fetchByMs) => {
      const [now, before] = engage.runTogether([current, earlier], { deadlineAtMs: fetchByMs });
      return tableToValues(buildExplainTable(now!, before!, { metric, topN, timeZone: this.deps.timeZone }));
    });
  }

  /** A lookup as sheet values: a header of the fields seen, then one row per entry. */
  formulaLookup(kind: LookupKind, publisherId: string | undefined, options: FormulaOptions): Cell[][] {
    const gate = this.gate();
    if (publisherId === undefined) gate.signIn();
    else gate.publisher(publisherId);
    const engage = this.session.signedIn({ listedPublishers: gate.listed });
    const identity = [
      'lookup',
      this.session.reportingBaseUrl(),
      engage.tokenHash,
      kind,
      publisherId ?? null,
      options.refresh ?? null,
      gate.fingerprint(),
    ];
    return this.results.computeOnce(identity, RESULT_TTL_SECONDS.lookup, options.deadlineAtMs, (fetchByMs) =>
      lookupTable(engage.lookup(kind, publisherId, { deadlineAtMs: fetchByMs }), LOOKUPS[kind].title),
    );
  }

  // ---- In-chat recommendations (key-authorised: no sign-in needed) ----

  /** ENGAGE_RECOMMENDATIONS: one row per document, cached briefly; never fires the impression pixel. */
  formulaRecommendations(raw: RawRecommendationsInput, options: FormulaOptions): Cell[][] {
    this.gate().apiKey();
    const input = recommendationsInput(raw, this.session.defaultWidgetId());
    const config = this.session.recommendationsConfig();
    // The identity is stored in the cache: it holds a hash of the key, never the key.
    const identity = ['recs', config.recommendationsUrl, hashText(config.apiKey), input, options.refresh ?? null];
    return this.results.computeOnce(identity, RECOMMENDATIONS_RESULT_TTL_SECONDS, options.deadlineAtMs, (fetchByMs) =>
      recommendationsTable(fetchRecommendations(this.recommendationsDeps(), config, input, { deadlineAtMs: fetchByMs })),
    );
  }

  /** The sidebar's preview: fresh documents (each answer has its own pixel address), only with http(s) links and https images and pixel. */
  previewRecommendations(raw: RawRecommendationsInput, options: { deadlineAtMs: number }): RecommendationsPreview {
    const input = recommendationsInput(raw, this.session.defaultWidgetId());
    return recommendationsPreview(
      fetchRecommendations(this.recommendationsDeps(), this.session.recommendationsConfig(), input, options),
      input,
      { localServers: this.deps.deployment?.localServers === true },
    );
  }

  /** What this formula may use: its spreadsheet owner's choice, read once per execution. */
  private gate(): FormulaGate {
    this.formulaGate ??= new FormulaGate(readFormulaPolicy(this.deps.userStore, this.deps.spreadsheetId));
    return this.formulaGate;
  }

  private recommendationsDeps(): RecommendationsDeps {
    const { transport, clock, sleeper, random } = this.deps;
    return { transport, clock, sleeper, fetchCounter: this.session.fetchQuota, ...(random ? { random } : {}) };
  }
}
