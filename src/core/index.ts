/**
 * The public surface of the core: exactly what the Apps Script adapters (src/gas), the entry points
 * (src/entrypoints) and the sidebar import, and they import the core only through here. Everything
 * else is private to the core (its tests may reach it directly). src/core/package.json tells the
 * bundler that no core module but the zod setup has side effects, so the sidebar's bundle takes only
 * what it uses from here.
 *
 * The core's rooms (the folders holding its files) are layers, lowest first; a file imports only from
 * its own room and the layers below it (test/unit/core/purity.test.ts checks it; docs/architecture.md
 * draws it and says which room to open for which change). Rooms on one line are one rank:
 *   util/                         dates, text, hashes, base64, UTF-8 sizes, A1 cells, sheet names, currencies, zod
 *   errors/                       the error hierarchy: its root, Engage's answers, failures without an answer
 *   (base)                        spec.ts, ports.ts, budgets.ts, deployment.ts, consent.ts at the root of src/core
 *   api/responses/                what Engage answers: shapes, values, the token rule, error answers
 *   api/transport/, api/requests/ sending, retries, rate limits, quotas; report requests and their rules
 *   api/paging/                   whole reports: pages, batches, several publishers
 *   api/client/                   the Engage client
 *   channels/                     the notice channels: email, webhook, their list; each one's setting, secret and sender
 *   sheets/, warehouse/           report tables, sheet blocks, lookup tables, formula arguments, block records, refresh waves;
 *                                 BigQuery: destination names, a report's table, its rows, the REST client, a day's load
 *   explain/                      a metric's change split exactly by key: additive by difference, ratios into mix and rate
 *   builder/, recommendations/    the sidebar's report builder rules; in-chat recommendations
 *   schedules/saved/              saved reports: definition, schedule, period, write mode, notices' settings, stores, registry
 *   schedules/refresh/            one refresh: the runner, a report's block, what every destination does
 *   schedules/watchers/           the run log, revisions, notices and alerts
 *   schedules/service/            the scheduling use cases and the scheduled run
 *   destinations/sheet/, destinations/bigquery/  each destination's own: the sheet's rows; a BigQuery table's
 *                                 definition, backfill, edits, status and Open in Sheets
 *   addon/stores/                 what one execution keeps for the next: token, caches, snapshots; the installation check
 *   addon/session/                the session, settings, comparisons
 *   addon/formulas/, addon/sidebar/  formula results and who may use what; Run to sheet and the report at a cell
 */
export type {
  BlockPlacement,
  Cache,
  CellsFound,
  Cell,
  Clock,
  Compressor,
  ConsentAnswer,
  ConsentPort,
  ConnectedSheet,
  ConnectedSheets,
  DataExecution,
  DataSourceTable,
  HttpRequest,
  HttpResponse,
  HttpTransport,
  ListableStore,
  Lock,
  Mailer,
  OAuthTokenSource,
  OwnRows,
  OwnSheet,
  OwnSheets,
  OwnSheetState,
  RefreshCell,
  RefreshCells,
  ReportSheet,
  ScheduledSpreadsheet,
  SheetBlock,
  SheetContents,
  SheetWriter,
  Sleeper,
  SpreadsheetOpener,
  TriggerPort,
  WrittenBlock,
} from './ports';
export {
  DATE_BREAKDOWNS,
  DEC_DIGITS_MAX,
  DOC_BREAKDOWN_WINDOW_MONTHS,
  ENTITY_BREAKDOWNS,
  EXTERNAL_ID_MAX_LENGTH,
  MAIN_BREAKDOWNS,
  MAIN_METRICS_ONLY_ON_WIDGET,
  MONEY_METRICS,
  REALTIME_WINDOW_HOURS,
  REPORT_SPECS,
  TOKEN_LIFETIME_DAYS,
  type LookupKind,
  type ReportKind,
} from './spec';
export {
  AUTHORIZATION_LINK_LEAD,
  SpreadsheetUnreachableError,
  TransportError,
  TriggerQuotaError,
  userMessage,
  ValidationError,
  type TransportFailureKind,
  type UnreachableReason,
} from './errors';
export {
  EXECUTION_LIMIT_MS,
  FORMULA_TIME_BUDGET_MS,
  PREVIEW_TIME_BUDGET_MS,
  REFRESH_END_MARGIN_MS,
  REFRESH_WAVE_FORMULAS,
  WAVE_MARK_AFTER_WORK_MS,
} from './budgets';

export { A1_CELL_PATTERN, a1Cell, cellPosition, cellReference, rangeReference, splitCellReference } from './util/a1-notation';
export { compactDay, dashedDay, daysBetween, isDate, MS_PER_HOUR } from './util/dates';
export { SUPPORTED_CURRENCY_CODES } from './util/currencies';
export { formatCount, formatDuration, quoted } from './util/text';

export { FORMULA_RESERVE_SHARE, type QuotaView } from './api/transport/daily-quota';
export { allowedByWhitelist, isLoopbackUrl, manifestWhitelist, type Deployment, type SpreadsheetAccess } from './deployment';
export { BASE_PERMISSIONS, FETCH_PERMISSION, requirePermissions } from './consent';
export { buildFilter, parseFilter, type FilterCondition, type FilterOperator } from './api/requests/filters';
export { breakdownCombinationProblems, effectiveBreakdowns, fieldProblem, metricAvailabilityProblem } from './api/requests/report-fields';
export { filterExample, filterOperatorsFor, filterTypeProblem } from './api/requests/filter-fields';
export { availableMetrics, defaultMetrics, METRIC_GROUPS, METRIC_INFO, metricLabel, metricNote } from './api/requests/report-metrics';
export {
  compareBreakdownProblem,
  type CompareWith,
  compareDefaultMetrics,
  describeCompareWith,
  earlierPeriod,
} from './api/requests/compare-periods';
export type { ReportInput } from './api/requests/report-request';
export { ALL_PUBLISHERS, MAX_PUBLISHERS_PER_REPORT, PUBLISHER_BREAKDOWN, publisherArgumentText } from './api/requests/publisher-list';

export {
  FORMULA_MAX_ROWS,
  optionalInteger,
  optionalList,
  optionalText,
  requiredDate,
  requiredText,
  singleValue,
} from './sheets/formula-args';
export { reportColumnCount } from './sheets/report-table';
export { compareColumnCount } from './sheets/compare-table';
export {
  asTypedInput,
  cellsAdded,
  cellsFound,
  checkCellRoom,
  formatNumberAs,
  type GridSize,
  NEW_SHEET_COLUMNS,
  WRITE_NUMBER_FORMAT,
} from './sheets/sheet-output';
export {
  REFRESH_GROUP_BASE_NAME,
  type RefreshOutcome,
  refreshGroupNumber,
  refreshGroupWithRoom,
  refreshOutcomeText,
  refreshPlanText,
  REFRESH_SIGNED_OUT_TEXT,
  refreshReferencePattern,
  withRefreshReference,
} from './sheets/refresh-waves';
export { driveRefreshWaves, refreshCellsFromAnotherDay, type RefreshDriving } from './sheets/refresh-driver';
export { countWaveEnd, WaveWatch } from './sheets/wave-watch';

export { builderMessage, checkRunTarget, type BuilderRequest, type RunTarget } from './builder/builder-request';
export {
  hourWindowFrom,
  PRESET_LABELS,
  presetRange,
  presetsFor,
  type DatePreset,
  type DateRange,
} from './builder/date-presets';
export { reportFormula } from './builder/formula-text';
export { comparisonAtCell, type ComparisonAtCell, isCompareFormula } from './builder/compare-at-cell';
export { compareFormula } from './builder/compare-request';
export { explainableMetrics } from './explain/explained-metric';
export { customDaysCheck, hourWindowCheck } from './builder/period-checks';
export { taggingProblems, taggingSnippets } from './builder/tagging-snippet';
export { DASHBOARD_FORMULAS, DASHBOARD_SHEET_NAME, dashboardInput, type DashboardLayout } from './builder/dashboard';

export { impressionPixelUrl } from './recommendations/impression-pixel';
export type { PreviewDocument, RecommendationsPreview } from './recommendations/preview';

export type { Period } from './schedules/saved/period';
export { formatLocal } from './schedules/refresh/refresh-runner';
export type { RefreshSummary } from './schedules/refresh/refresh-source';
export type { ReportRunEvent, RunObserver } from './schedules/refresh/run-events';
export { RunLog } from './schedules/watchers/run-log';
export { closedMonthNotice, type Revision, RevisionTracker } from './schedules/watchers/revisions';
export { SavedReportStore } from './schedules/saved/saved-report-store';
export { freeName } from './schedules/saved/report-names';
export { incrementalProblem, type SavedReportInput, tracksRevisions } from './schedules/saved/saved-reports';
export { ReportNotices } from './schedules/watchers/notices';
export { NoticeObserver, noticesUntilMs } from './schedules/watchers/notice-observer';
export { RunFailureNotices } from './schedules/watchers/failure-notices';
export type { ChannelId, ChannelSenders } from './channels/channels';
export { emailSender } from './channels/email';
export { isRedactedWebhook, webhookSender } from './channels/webhook';
export {
  ALERTS_MAX,
  alertProblems,
  type AlertRule,
  describeAlert,
  NOTICE_WHEN,
  type NoticeSettingsInput,
  type NoticeWhen,
  type WatchedReport,
} from './schedules/saved/notice-settings';
export { describeDayOfMonth, MAX_DAY_OF_MONTH, WEEKDAYS, type Schedule, type Weekday } from './schedules/saved/schedule';
export {
  DEFAULT_MAX_STORED_ROWS,
  MAX_STORED_ROWS_LIMIT,
  upsertKeyNames,
  type WriteMode,
  writeModeOf,
  writeModeProblem,
  writeModeSummary,
} from './schedules/saved/write-modes';
export {
  builderRequestOfSaved,
  describePeriod,
  type PeriodChoice,
  savedReportFromBuilder,
  schedulePeriod,
} from './schedules/saved/schedule-draft';
export { OWNER_ID_KEY, TRIGGERS_PER_USER } from './schedules/service/schedule-deps';
export { BigQueryClient } from './warehouse/bigquery-client';
export { bigqueryRootUrl, READY_QUERY_DAYS } from './warehouse/report-load';
export { ScheduleService, type ScheduleList, type ScheduleView } from './schedules/service/schedule-service';
export { Destinations } from './schedules/refresh/destination';
export { sheetDestination } from './destinations/sheet/sheet-destination';
export { bigQueryDestination } from './destinations/bigquery/bigquery-destination';
export type { OpenInSheetsAnswer } from './destinations/bigquery/open-in-sheets';
export { ScheduleRegistry } from './schedules/saved/registry';
export type { NoticesView, UnreachableView } from './schedules/service/schedule-view';

export { EngageAddon, type AddonDeps } from './addon/formulas/engage-addon';
export { EngageSession, type SidebarState, type SignInAllowance } from './addon/session/session';
export {
  checkRunId,
  SidebarReports,
  type SidebarReportsDeps,
  type Publisher,
  type RunNeedsAnswer,
  type RunProgress,
  type RunToSheetSummary,
} from './addon/sidebar/sidebar-reports';
export type { ReportAtCell } from './addon/sidebar/report-at-cell';
export { runExplanationToSheet } from './addon/sidebar/explain-run';
export { FormulaAccess, type FormulaAccessView } from './addon/formulas/formula-access';
export type { FormulaAccessMode } from './addon/formulas/formula-policy';
export type { RunPlacement, WriteChoice, WriteQuestion } from './addon/sidebar/run-placement';
export { freeSheetName } from './util/sheet-names';
export {
  CACHE_PROBE_ROWS,
  cacheFinding,
  cacheProbe,
  checkOwnerMayCheck,
  CONCURRENCY_PROBE_FORMULAS,
  type Finding,
  findingRows,
  INSTALLATION_CHECK_SHEET,
  type TriggerContext,
} from './addon/stores/installation-check';
export { bigQueryDatasetFinding, type ConnectedSheetsProbe, connectedSheetsFinding } from './destinations/bigquery/installation-rows';
export {
  AWAITING_TRIGGER_KEY,
  awaitFormulaProbes,
  awaitTriggerRun,
  DATE_LIKE_NAME,
  finishTriggerFinding,
  formulaFindings,
  hostFindings,
  pendingTriggerFinding,
  recordTriggerContext,
  type TriggerProbe,
} from './addon/stores/installation-check-run';
export { mailQuotaFinding, type MailQuotaOutcome, webhookPrefixFindings } from './addon/stores/installation-channels';
export { checkedScopes, consentFindings, flagTestDeployment, installationSourceFinding } from './addon/stores/installation-consent';
