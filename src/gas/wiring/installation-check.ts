/**
 * The installation check on the live platform, built from the adapters (the findings' words and the
 * check's course are the core's, src/core/addon/stores/installation-check.ts and
 * installation-check-run.ts). It runs as a menu item of the spreadsheet's owner, within one execution's
 * 6 minutes: URL Fetch to each configured address; a one-off trigger a minute ahead, whose run says
 * whether it had a document (recorded in the user's properties and written into the sheet by the next
 * open, or by the trigger's own run when it has the document); in a build with BigQuery, its dataset
 * and Connected Sheets (installation-bigquery.ts); the cell probes of the check's sheet
 * (adapters/sheets/check-sheet.ts); a 20,000-row result compressed and cached; the mail quota left
 * and the webhook prefixes configured (installation-channels.ts); how the add-on was installed and
 * what the user granted (the core's installation-consent.ts).
 */
import {
  awaitTriggerRun,
  CACHE_PROBE_ROWS,
  cacheFinding,
  cacheProbe,
  BASE_PERMISSIONS,
  checkedScopes,
  checkOwnerMayCheck,
  consentFindings,
  flagTestDeployment,
  installationSourceFinding,
  type Finding,
  findingRows,
  finishTriggerFinding as finishedTriggerFinding,
  formatLocal,
  hostFindings,
  INSTALLATION_CHECK_SHEET,
  mailQuotaFinding,
  type MailQuotaOutcome,
  manifestWhitelist,
  pendingTriggerFinding,
  recordTriggerContext as recordedTriggerContext,
  type TriggerContext,
  webhookPrefixFindings,
} from '../../core';
import { installTriggerProbe } from '../adapters/check-trigger';
import { scriptConsent } from '../adapters/consent';
import { DEPLOYMENT } from '../adapters/deployment';
import { gzipCompressor } from '../adapters/gzip-compressor';
import { cellProbes, checkSheet, writeCheckRows } from '../adapters/sheets/check-sheet';
import { blockingSleeper, systemClock } from '../adapters/system-time';
import { PropertiesStore } from '../adapters/properties-store';
import { ServiceCache } from '../adapters/service-cache';
import { UrlFetchTransport } from '../adapters/fetch/url-fetch-transport';
import { createSession } from './addon-services';
import { destinations } from './destinations';
import { bigQueryFindings } from './installation-bigquery';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** Whether the deployment loads into BigQuery; read where it is used, so that esbuild folds it there. */
declare const __ENGAGE_BIGQUERY__: boolean;

function checkedAt(spreadsheet: Spreadsheet, atMs: number): string {
  const zone = spreadsheet.getSpreadsheetTimeZone();
  return `${formatLocal(atMs, zone)} (${zone})`;
}

/** A probe's answer, or Google's words when it refuses: never a crash. */
function probe<T>(ask: () => T): T | { error: string } {
  try {
    return ask();
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** Runs every probe and writes the findings to the sheet "Engage installation check"; returns them. */
export function runInstallationCheck(spreadsheet: Spreadsheet): { findings: Finding[]; sheetName: string } {
  const owner = spreadsheet.getOwner();
  checkOwnerMayCheck(owner === null ? null : owner.getEmail(), Session.getEffectiveUser().getEmail());
  const startedAtMs = Date.now();
  const trigger = installTriggerProbe(spreadsheet);
  const sheet = checkSheet(spreadsheet);
  const findings: Finding[] = [...hostFindings(createSession().sidebarState().settings, new UrlFetchTransport(UrlFetchApp))];
  // In a branch, so that a build without BigQuery leaves its probes out (scripts/build.ts folds the flag).
  if (__ENGAGE_BIGQUERY__) findings.push(...bigQueryFindings(spreadsheet));
  const triggerIndex = findings.length;
  const source = probe(() => String(ScriptApp.getInstallationSource()));
  findings.push(flagTestDeployment(pendingTriggerFinding(trigger, DEPLOYMENT.spreadsheetAccess ?? 'all', startedAtMs), source));
  findings.push(...cellProbes(sheet, systemClock, blockingSleeper));
  const cache = CacheService.getDocumentCache() ?? CacheService.getUserCache();
  findings.push(cacheFinding(cacheProbe(new ServiceCache(cache), gzipCompressor, systemClock, CACHE_PROBE_ROWS)));
  findings.push(...channelFindings());
  findings.push(installationSourceFinding(source));
  const permissions = [...BASE_PERMISSIONS, ...destinations(createSession).permissions()];
  const scopes = checkedScopes(DEPLOYMENT.spreadsheetAccess ?? 'all', permissions);
  findings.push(
    ...consentFindings(
      scopes,
      probe(() => scriptConsent.check(scopes.map((s) => s.scope))),
    ),
  );
  const rows = findingRows(findings, checkedAt(spreadsheet, Date.now()));
  writeCheckRows(sheet, 1, rows);
  sheet.getRange(1, 1, 1, rows[0]!.length).setFontWeight('bold');
  sheet.setFrozenRows(1);
  awaitTriggerRun(new PropertiesStore(PropertiesService.getUserProperties()), {
    spreadsheetId: spreadsheet.getId(),
    startedAtMs,
    row: triggerIndex + 2,
  });
  return { findings, sheetName: sheet.getName() };
}

/**
 * The notice channels, read only: the mail quota left (MailApp, which Google refuses without the
 * script.send_mail scope: its words become the finding), and each webhook prefix as this build
 * configured it. Nothing is sent or posted.
 */
function channelFindings(): Finding[] {
  let quota: MailQuotaOutcome;
  try {
    quota = { remaining: MailApp.getRemainingDailyQuota() };
  } catch (error) {
    quota = { refused: error instanceof Error ? error.message : String(error) };
  }
  return [
    mailQuotaFinding(quota, DEPLOYMENT.accountType),
    ...webhookPrefixFindings(DEPLOYMENT.webhookPrefixes ?? [], manifestWhitelist(DEPLOYMENT)),
  ];
}

/**
 * A trigger's run says what it had: recorded in the user's properties (a run may have no document),
 * and written into the check's sheet at once when the run has it. The check's one-off trigger always
 * records; an hourly run only when the check is waiting for it.
 */
export function recordTriggerContext(by: TriggerContext['by']): void {
  // The run's document, looked at only when its word is recorded.
  const run: { spreadsheet: Spreadsheet | null } = { spreadsheet: null };
  const recorded = recordedTriggerContext(new PropertiesStore(PropertiesService.getUserProperties()), by, () => {
    run.spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
    return { hadDocument: run.spreadsheet !== null, atMs: Date.now(), by };
  });
  if (recorded && run.spreadsheet) finishTriggerFinding(run.spreadsheet);
}

/**
 * Writes the trigger's finding into the check's sheet of this spreadsheet once a trigger run after the
 * check has said what it saw (the open calls it: one property read when no check waits); true when written.
 */
export function finishTriggerFinding(spreadsheet: Spreadsheet): boolean {
  const store = new PropertiesStore(PropertiesService.getUserProperties());
  return finishedTriggerFinding(store, spreadsheet.getId(), DEPLOYMENT.spreadsheetAccess ?? 'all', (row, finding, seenAtMs) => {
    const sheet = spreadsheet.getSheetByName(INSTALLATION_CHECK_SHEET);
    if (sheet) writeCheckRows(sheet, row, [findingRows([finding], checkedAt(spreadsheet, seenAtMs))[1]!]);
  });
}
