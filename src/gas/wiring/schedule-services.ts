/**
 * Builds the scheduling use cases (core ScheduleService) from Apps Script services for one
 * execution: saved reports in the document's properties under the document lock (when the execution
 * has a document), the user's registry and owner id in the user's properties, the spreadsheet and its
 * report sheet, the user's hourly trigger, and, with spreadsheetAccess "all", the user's other
 * spreadsheets opened by ID; the destinations the build has (destinations.ts). The watchers of each spreadsheet's refreshes (observersFor): its run log
 * and revisions (history-observers.ts), whose restated closed months are told through the report's
 * notices, and the notices and alerts of the reports, which share the execution's registry and fetch
 * count (notices.ts); the run's failures wait in one collector for all its spreadsheets and go out
 * grouped per channel when it is over in all of them (runEndObservers).
 */
import { scriptConsent } from '../adapters/consent';
import { SavedReportStore, ScheduleRegistry, ScheduleService } from '../../core';
import { createSession } from './addon-services';
import { destinations } from './destinations';
import { DEPLOYMENT } from '../adapters/deployment';
import { historyObservers } from './history-observers';
import { scheduledSpreadsheet, spreadsheetOpener } from '../adapters/sheets/spreadsheet-opener';
import { PropertiesStore } from '../adapters/properties-store';
import { ServiceLock } from '../adapters/service-lock';
import { systemClock } from '../adapters/system-time';
import { HourlyTrigger } from '../adapters/triggers';
import { closedMonthNotices, createReportNotices, noticeObservers, runFailureNotices } from './notices';

export function createScheduleService(): ScheduleService {
  // Null in a trigger's run that Apps Script started without a document.
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const documentProperties = spreadsheet ? PropertiesService.getDocumentProperties() : null;
  const documentLock = spreadsheet ? LockService.getDocumentLock() : null;
  const access = DEPLOYMENT.spreadsheetAccess ?? 'all';
  const userStore = new PropertiesStore(PropertiesService.getUserProperties());
  const account = createSession();
  const registry = new ScheduleRegistry({ store: userStore });
  // One for the execution: a revisions watcher may tell a report's owner through it too (notices.send).
  const notices = createReportNotices(registry, account);
  // The run's failures, from every spreadsheet it reaches: sent grouped when it is over in all of them.
  const failures = runFailureNotices(notices, registry);
  return new ScheduleService({
    account,
    destinations: destinations(() => account),
    ...(spreadsheet && documentProperties && documentLock
      ? {
          document: {
            reports: new SavedReportStore({
              store: new PropertiesStore(documentProperties),
              lock: new ServiceLock(documentLock),
              clock: systemClock,
            }),
            spreadsheet: scheduledSpreadsheet(spreadsheet),
          },
        }
      : {}),
    registry,
    userStore,
    consent: scriptConsent,
    trigger: new HourlyTrigger(spreadsheet, access),
    access,
    ...(access === 'all' ? { opener: spreadsheetOpener } : {}),
    deployment: DEPLOYMENT,
    observersFor: (scheduled) => [
      ...historyObservers(scheduled, closedMonthNotices(notices)),
      ...noticeObservers(notices, registry, failures),
    ],
    runEndObservers: [failures],
    clock: systemClock,
  });
}
