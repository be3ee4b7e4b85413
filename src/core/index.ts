/**
 * The public surface of the core: exactly what the Apps Script adapters (src/gas), the entry points
 * (src/entrypoints) and the sidebar import, and they import the core only through here. Everything
 * else is private to the core (its tests may reach it directly). src/core/package.json tells the
 * bundler that no core module but the zod setup has side effects, so the sidebar's bundle takes only
 * what it uses from here.
 *
 * The core's folders are layers, lowest first; a file imports only from its own folder and the layers
 * below it (test/unit/core/purity.test.ts checks it):
 *   util/             dates and days relative to today, text, hashes, base64, UTF-8 sizes, A1 cells, currencies, the zod setup
 *   errors/           the error hierarchy: its root, Engage's answers, failures without an answer
 *   (base)            spec.ts, ports.ts, budgets.ts at the root of src/core
 *   api/              the Engage client and its requests: sending, retries, rate limits, paging, answers
 *   sheets/           report tables, sheet blocks, lookup tables, formula arguments, block records, refresh waves
 *   builder/, recommendations/   the sidebar's report builder rules; in-chat recommendations (one rank)
 *   schedules/        saved reports, periods, schedules, the refresh runner and the schedule service
 *   addon/            the add-on's use cases: the session and settings, formula results, sidebar runs
 */
export type {
  BlockPlacement,
  Cache,
  CellsFound,
  Cell,
  Clock,
  Compressor,
  HttpRequest,
  HttpResponse,
  HttpTransport,
  ListableStore,
  Lock,
  Mailer,
  OwnRows,
  OwnSheet,
  OwnSheets,
  OwnSheetState,
  ReportSheet,
  ScheduledSpreadsheet,
  SheetBlock,
  SheetContents,
  SheetWriter,
  Sleeper,
  SpreadsheetOpener,
  SpreadsheetRef,
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
  REALTIME_WINDOW_HOURS,
  REPORT_SPECS,
  TOKEN_LIFETIME_DAYS,
  type LookupKind,
  type ReportKind,
} from './spec';
export {
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
  REFRESH_DEFAULT_BUDGET_MS,
  REFRESH_END_MARGIN_MS,
  REFRESH_WAVE_FORMULAS,
  REFRESH_WAVE_GRACE_MS,
  REFRESH_WAVE_LIMIT_MS,
  REFRESH_WAVE_POLL_MS,
  WAVE_MARK_AFTER_WORK_MS,
  WAVE_MARK_LOCK_TIMEOUT_MS,
} from './budgets';

export { A1_CELL_PATTERN, a1Cell, cellPosition, cellReference, rangeReference, splitCellReference } from './util/a1-notation';
export { compactDay, dashedDay, daysBetween, isDate, MS_PER_HOUR } from './util/dates';
export { isAnotherDay } from './util/relative-days';
export { SUPPORTED_CURRENCY_CODES } from './util/currencies';
export { formatCount, formatDuration, quoted } from './util/text';

export { FORMULA_RESERVE_SHARE, type QuotaView } from './api/daily-quota';
export { allowedByWhitelist, isLoopbackUrl, type Deployment, type SpreadsheetAccess } from './api/deployment';
export { buildFilter, FILTER_OPERATORS, parseFilter, type FilterCondition, type FilterOperator } from './api/filters';
export { breakdownCombinationProblems, effectiveBreakdowns, fieldProblem, metricAvailabilityProblem } from './api/report-fields';
export { availableMetrics, defaultMetrics, METRIC_GROUPS, METRIC_INFO, metricLabel, metricNote } from './api/report-metrics';
export {
  compareBreakdownProblem,
  type CompareWith,
  compareDefaultMetrics,
  describeCompareWith,
  earlierPeriod,
} from './api/compare-periods';
export type { ReportInput } from './api/report-request';
export { ALL_PUBLISHERS, MAX_PUBLISHERS_PER_REPORT, PUBLISHER_BREAKDOWN, publisherArgumentText } from './api/publisher-list';

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
  checkCellRoom,
  formatNumberAs,
  type GridSize,
  NEW_SHEET_COLUMNS,
  WRITE_NUMBER_FORMAT,
} from './sheets/sheet-output';
export {
  nextRefreshStampMs,
  parseWaveCount,
  planRefreshWaves,
  REFRESH_GROUP_BASE_NAME,
  type RefreshOutcome,
  type RefreshWave,
  refreshGroupNumber,
  refreshGroupWithRoom,
  refreshOutcomeText,
  refreshPlanText,
  REFRESH_SIGNED_OUT_TEXT,
  refreshReferencePattern,
  refreshWaveKey,
  type WaveCount,
  withRefreshReference,
} from './sheets/refresh-waves';

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
export { compareFormula } from './builder/compare-request';
export { customDaysCheck, hourWindowCheck } from './builder/period-checks';
export { taggingProblems, taggingSnippets } from './builder/tagging-snippet';
export { DASHBOARD_FORMULAS, DASHBOARD_SHEET_NAME, dashboardInput, type DashboardLayout } from './builder/dashboard';

export { impressionPixelUrl } from './recommendations/impression-pixel';
export type { PreviewDocument, RecommendationsPreview } from './recommendations/preview';

export type { Period } from './schedules/period';
export { formatLocal, type RefreshSummary } from './schedules/refresh-runner';
export type { ReportRunEvent, RunObserver } from './schedules/run-events';
export { RunLog } from './schedules/run-log';
export { closedMonthNotice, type Revision, RevisionTracker } from './schedules/revisions';
export { SavedReportStore } from './schedules/saved-report-store';
export { incrementalProblem, type SavedReport, type SavedReportInput, tracksRevisions } from './schedules/saved-reports';
export { type Notice, ReportNotices } from './schedules/notices';
export { NoticeObserver } from './schedules/notice-observer';
export {
  ALERTS_MAX,
  alertProblems,
  type AlertRule,
  describeAlert,
  isRedactedWebhook,
  NOTICE_WHEN,
  type NoticeSettingsInput,
  type NoticeWhen,
  type WatchedReport,
} from './schedules/notice-settings';
export { describeDayOfMonth, MAX_DAY_OF_MONTH, WEEKDAYS, type Schedule, type Weekday } from './schedules/schedule';
export {
  DEFAULT_MAX_STORED_ROWS,
  MAX_STORED_ROWS_LIMIT,
  upsertKeyNames,
  type WriteMode,
  writeModeOf,
  writeModeProblem,
  writeModeSummary,
} from './schedules/write-modes';
export {
  builderRequestOfSaved,
  describePeriod,
  type PeriodChoice,
  savedReportFromBuilder,
  schedulePeriod,
} from './schedules/schedule-draft';
export { OWNER_ID_KEY, ScheduleService, TRIGGERS_PER_USER, type ScheduleList, type ScheduleView } from './schedules/schedule-service';
export { ScheduleRegistry } from './schedules/registry';
export type { NoticesView, UnreachableView } from './schedules/schedule-view';

export { EngageAddon, type AddonDeps } from './addon/engage-addon';
export { EngageSession, type SidebarState, type SignInAllowance } from './addon/session';
export {
  checkRunId,
  SidebarReports,
  type Publisher,
  type RunNeedsAnswer,
  type RunProgress,
  type RunToSheetSummary,
} from './addon/sidebar-reports';
export type { ReportAtCell } from './addon/report-at-cell';
export { FormulaAccess, type FormulaAccessView } from './addon/formula-access';
export type { FormulaAccessMode } from './addon/formula-policy';
export type { RunPlacement, WriteChoice, WriteQuestion } from './addon/run-placement';
export { freeSheetName } from './util/sheet-names';
export {
  CACHE_PROBE_ROWS,
  cacheFinding,
  cacheProbe,
  checkOwnerMayCheck,
  CONCURRENCY_PROBE_FORMULAS,
  concurrencyFinding,
  type Finding,
  findingRows,
  hostFinding,
  INSTALLATION_CHECK_SHEET,
  sidebarInCellFinding,
  textFinding,
  todayFinding,
  TRIGGER_CONTEXT_KEY,
  type TriggerContext,
  triggerFinding,
} from './addon/installation-check';
