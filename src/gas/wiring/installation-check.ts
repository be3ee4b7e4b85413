/**
 * The installation check's probes on the live platform (the findings' words are the core's,
 * src/core/addon/stores/installation-check.ts). It runs as a menu item of the spreadsheet's owner, within one
 * execution's 6 minutes: URL Fetch to each configured address; a one-off trigger a minute ahead, whose
 * run says whether it had a document (recorded in the user's properties and written into the sheet by
 * the next open, or by the trigger's own run when it has the document); a date-like name written as the
 * add-on writes text, and written plainly; `=ENGAGE_VERSION(TODAY())`; `=GETSIDEBARSTATE()` in a cell;
 * 40 formulas written at once; and a 20,000-row result compressed and cached. The formula probes are
 * written, flushed, then read until they show something other than "Loading..." or 30 seconds pass.
 */
import {
  asTypedInput,
  CACHE_PROBE_ROWS,
  cacheFinding,
  cacheProbe,
  type Cell,
  checkOwnerMayCheck,
  CONCURRENCY_PROBE_FORMULAS,
  concurrencyFinding,
  type Finding,
  findingRows,
  formatLocal,
  freeSheetName,
  hostFinding,
  INSTALLATION_CHECK_SHEET,
  sidebarInCellFinding,
  textFinding,
  todayFinding,
  TransportError,
  TRIGGER_CONTEXT_KEY,
  type TriggerContext,
  triggerFinding,
  WRITE_NUMBER_FORMAT,
} from '../../core';
import { createSession } from './addon-services';
import { AWAITING_TRIGGER_KEY, awaitHourlyRunFinding, CHECK_TRIGGER_HANDLER } from '../adapters/check-trigger';
import { DEPLOYMENT } from '../adapters/deployment';
import { gzipCompressor } from '../adapters/gzip-compressor';
import { ServiceCache, systemClock } from '../adapters/stores';
import { UrlFetchTransport } from '../adapters/url-fetch-transport';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** The user's check waiting for a trigger's run to say what it saw: {spreadsheetId, startedAtMs, row}. */
const CHECK_RUN_KEY = 'engage.check.run';
/** How long formula probes may take to show something (a custom function has 30 s). */
const FORMULA_WAIT_MS = 30_000;
const POLL_MS = 500;
/** A trigger installed a minute ahead: the shortest a one-off time-driven trigger is worth waiting for. */
const TRIGGER_AHEAD_MS = 60_000;
/** The probes' cells, to the right of the findings (which take A to E). */
const PROBE_COLUMN = 8;
const DATE_LIKE_NAME = '1/2';

interface CheckRun {
  spreadsheetId: string;
  startedAtMs: number;
  /** The sheet row of the trigger's finding. */
  row: number;
}

function checkSheet(spreadsheet: Spreadsheet): GoogleAppsScript.Spreadsheet.Sheet {
  const found = spreadsheet.getSheetByName(INSTALLATION_CHECK_SHEET);
  if (found) {
    found.clear();
    return found;
  }
  const names = spreadsheet.getSheets().map((s) => s.getName());
  return spreadsheet.insertSheet(freeSheetName(names, INSTALLATION_CHECK_SHEET));
}

/** Each configured address, fetched once without a sign-in. */
function hostFindings(): Finding[] {
  const settings = createSession().sidebarState().settings;
  const targets: Array<[string, string | undefined]> = [
    ['reporting API', settings.reportingBaseUrl && `${settings.reportingBaseUrl.replace(/\/+$/, '')}/publishers`],
    ['recommendations endpoint', settings.recommendationsUrl],
  ];
  const transport = new UrlFetchTransport(UrlFetchApp);
  return targets
    .filter((t): t is [string, string] => typeof t[1] === 'string' && t[1] !== '')
    .map(([name, url]) => {
      try {
        return hostFinding(name, url, { status: transport.fetch({ url, method: 'get' }).status });
      } catch (error) {
        const failure = error instanceof TransportError ? error.kind : 'connection';
        return hostFinding(name, url, { failure, message: error instanceof Error ? error.message : String(error) });
      }
    });
}

/**
 * Installs the one-off trigger a minute ahead. A document takes one time-driven trigger per user: where
 * the user's hourly one is already here, that run will tell instead. Any other refusal is the finding.
 */
function installTriggerProbe(spreadsheet: Spreadsheet): { ok: true; by: 'check' | 'hourly run' } | { ok: false; error: string } {
  if (ScriptApp.getUserTriggers(spreadsheet).some((t) => t.getEventType() === ScriptApp.EventType.CLOCK)) {
    awaitHourlyRunFinding();
    return { ok: true, by: 'hourly run' };
  }
  try {
    ScriptApp.newTrigger(CHECK_TRIGGER_HANDLER).timeBased().after(TRIGGER_AHEAD_MS).create();
    return { ok: true, by: 'check' };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** What a formula cell shows, or undefined while it computes (an empty cell, or Loading...). */
function shown(value: unknown): unknown {
  return value === '' || value === 'Loading...' ? undefined : value;
}

/** Writes the formula probes, makes Sheets compute them, and reads them until each shows something or the time is up. */
function formulaProbes(sheet: GoogleAppsScript.Spreadsheet.Sheet): Finding[] {
  const text = sheet.getRange(1, PROBE_COLUMN, 2, 1);
  // As the add-on writes API text (a number format first, then the text with its apostrophe); then plainly, into a cleared cell.
  sheet.getRange(1, PROBE_COLUMN).setNumberFormat(WRITE_NUMBER_FORMAT);
  text.setValues([asTypedInput([[DATE_LIKE_NAME]])[0]!, [DATE_LIKE_NAME]]);
  sheet.getRange(3, PROBE_COLUMN).setFormula('=GETSIDEBARSTATE()');
  sheet.getRange(4, PROBE_COLUMN).setFormula('=ENGAGE_VERSION(TODAY())');
  const many = sheet.getRange(1, PROBE_COLUMN + 1, CONCURRENCY_PROBE_FORMULAS, 1);
  // One write: Sheets starts all of them at once.
  many.setFormulas(Array.from({ length: CONCURRENCY_PROBE_FORMULAS }, (_, i) => [`=ENGAGE_VERSION(${i + 1})`]));
  SpreadsheetApp.flush();
  const started = Date.now();
  let single: unknown[] = [];
  let together: unknown[] = [];
  for (;;) {
    single = sheet
      .getRange(3, PROBE_COLUMN, 2, 1)
      .getValues()
      .map((row) => shown(row[0]));
    together = many.getValues().map((row) => shown(row[0]));
    if ([...single, ...together].every((v) => v !== undefined) || Date.now() - started >= FORMULA_WAIT_MS) break;
    Utilities.sleep(POLL_MS);
  }
  const waitedMs = Date.now() - started;
  const [asTheAddonWrites, plainly] = text.getValues().map((row) => row[0]);
  const isVersion = (v: unknown) => typeof v === 'string' && v.startsWith('Engage for Sheets');
  const today = single[1];
  const findings = [
    textFinding(DATE_LIKE_NAME, asTheAddonWrites, plainly, sheet.getParent().getSpreadsheetTimeZone()),
    todayFinding(today === undefined ? 'loading' : isVersion(today) ? 'value' : 'error', waitedMs),
    sidebarInCellFinding(single[0] ?? 'Loading...'),
    concurrencyFinding({
      formulas: CONCURRENCY_PROBE_FORMULAS,
      values: together.filter(isVersion).length,
      errors: together.filter((v) => v !== undefined && !isVersion(v)).length,
      loading: together.filter((v) => v === undefined).length,
      waitedMs,
    }),
  ];
  sheet.getRange(1, PROBE_COLUMN, CONCURRENCY_PROBE_FORMULAS, 2).clear();
  return findings;
}

/** The check's sheet rows at `row` (a header first): plain text, as API text is written. */
function writeRows(sheet: GoogleAppsScript.Spreadsheet.Sheet, row: number, rows: Cell[][]): void {
  const range = sheet.getRange(row, 1, rows.length, rows[0]!.length);
  range.setNumberFormat(WRITE_NUMBER_FORMAT);
  range.setValues(asTypedInput(rows));
}

function checkedAt(spreadsheet: Spreadsheet, atMs: number): string {
  const zone = spreadsheet.getSpreadsheetTimeZone();
  return `${formatLocal(atMs, zone)} (${zone})`;
}

/** Runs every probe and writes the findings to the sheet "Engage installation check"; returns them. */
export function runInstallationCheck(spreadsheet: Spreadsheet): { findings: Finding[]; sheetName: string } {
  const owner = spreadsheet.getOwner();
  checkOwnerMayCheck(owner === null ? null : owner.getEmail(), Session.getEffectiveUser().getEmail());
  const startedAtMs = Date.now();
  const trigger = installTriggerProbe(spreadsheet);
  const sheet = checkSheet(spreadsheet);
  const findings: Finding[] = [...hostFindings()];
  const triggerIndex = findings.length;
  const pending = triggerFinding(undefined, DEPLOYMENT.spreadsheetAccess ?? 'all', startedAtMs);
  if (!trigger.ok) {
    pending.status = 'attention';
    pending.result = `The check could not install its trigger: ${trigger.error}`;
    pending.meaning = 'Whether a scheduled run has its spreadsheet stays unknown: run the check again later, or report this.';
  } else if (trigger.by === 'hourly run') {
    pending.result = 'No trigger run since the check started (your hourly trigger is in this spreadsheet: its next run will tell).';
  }
  findings.push(pending);
  findings.push(...formulaProbes(sheet));
  const cache = CacheService.getDocumentCache() ?? CacheService.getUserCache();
  findings.push(cacheFinding(cacheProbe(new ServiceCache(cache), gzipCompressor, systemClock, CACHE_PROBE_ROWS)));
  const rows = findingRows(findings, checkedAt(spreadsheet, Date.now()));
  writeRows(sheet, 1, rows);
  sheet.getRange(1, 1, 1, rows[0]!.length).setFontWeight('bold');
  sheet.setFrozenRows(1);
  const run: CheckRun = { spreadsheetId: spreadsheet.getId(), startedAtMs, row: triggerIndex + 2 };
  PropertiesService.getUserProperties().setProperty(CHECK_RUN_KEY, JSON.stringify(run));
  return { findings, sheetName: sheet.getName() };
}

/**
 * A trigger's run says what it had: recorded in the user's properties (a run may have no document),
 * and written into the check's sheet at once when the run has it. The check's one-off trigger always
 * records; an hourly run only when the check is waiting for it.
 */
export function recordTriggerContext(by: TriggerContext['by']): void {
  const properties = PropertiesService.getUserProperties();
  if (by === 'schedule') {
    if (properties.getProperty(AWAITING_TRIGGER_KEY) === null) return;
    properties.deleteProperty(AWAITING_TRIGGER_KEY);
  }
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const context: TriggerContext = { hadDocument: spreadsheet !== null, atMs: Date.now(), by };
  properties.setProperty(TRIGGER_CONTEXT_KEY, JSON.stringify(context));
  if (spreadsheet) finishTriggerFinding(spreadsheet);
}

/** Removes the check's one-off trigger once it has run (the event's triggerUid names it). */
export function removeCheckTrigger(triggerUid: unknown): void {
  for (const trigger of ScriptApp.getProjectTriggers()) {
    if (trigger.getHandlerFunction() === CHECK_TRIGGER_HANDLER && (triggerUid === undefined || trigger.getUniqueId() === triggerUid)) {
      ScriptApp.deleteTrigger(trigger);
    }
  }
}

/**
 * Writes the trigger's finding into the check's sheet of this spreadsheet once a trigger run after the
 * check has said what it saw (the open calls it: one property read when no check waits); true when written.
 */
export function finishTriggerFinding(spreadsheet: Spreadsheet): boolean {
  const properties = PropertiesService.getUserProperties();
  const raw = properties.getProperty(CHECK_RUN_KEY);
  if (raw === null) return false;
  let run: CheckRun;
  let context: TriggerContext | undefined;
  try {
    run = JSON.parse(raw) as CheckRun;
    const recorded = properties.getProperty(TRIGGER_CONTEXT_KEY);
    context = recorded === null ? undefined : (JSON.parse(recorded) as TriggerContext);
  } catch {
    properties.deleteProperty(CHECK_RUN_KEY);
    return false;
  }
  if (run.spreadsheetId !== spreadsheet.getId() || !context || context.atMs < run.startedAtMs) return false;
  const sheet = spreadsheet.getSheetByName(INSTALLATION_CHECK_SHEET);
  if (sheet) {
    const finding = triggerFinding(context, DEPLOYMENT.spreadsheetAccess ?? 'all', run.startedAtMs);
    writeRows(sheet, run.row, [findingRows([finding], checkedAt(spreadsheet, context.atMs))[1]!]);
  }
  properties.deleteProperty(CHECK_RUN_KEY);
  return true;
}
