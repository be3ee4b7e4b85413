/**
 * The sheet destination: a saved report's rows written at its target cell, in its write mode (replace,
 * append or upsert, incremental: write-modes.ts), within its row cap. It answers for its reports what
 * the runner, the scheduling use cases and the Schedules tab ask of any destination
 * (schedules/refresh/destination.ts): its refresh fetches every page first (refresh-block.ts), then
 * writes once, so a failure leaves the previous rows; a change that would write over the rows an
 * append or upsert kept is refused (keepHistory). The sheet needs nothing beyond what every refresh
 * is given.
 */
import { cellReference } from '../../util/a1-notation';
import type { Destination, DestinationRefresh, DestinationRefreshContext } from '../../schedules/refresh/destination';
import { placementOf, refreshBlock, sameCorner } from '../../schedules/refresh/refresh-block';
import { nextRunAfter } from '../../schedules/saved/schedule';
import { keepHistory, writeModeOf } from '../../schedules/saved/write-modes';

export function sheetDestination(): Destination {
  return {
    kind: 'sheet',
    // Writing cells needs the spreadsheet's own scope, which every installation has.
    permissions: [],
    // The sheet's rules are the definition's own (saved-reports.ts, write-modes.ts).
    checkDefinition: () => undefined,
    checkRange: () => undefined,
    checkAmong: () => undefined,
    checkWithService: () => undefined,
    checkChange: (before, after, status) => keepHistory(before, after, status),
    statusAfterEdit: () => undefined,
    dueAnyway: () => false,
    refresh: (context) => refreshSheet(context),
    describe: (report) => ({ target: cellReference(report.destination.target.sheetName, report.destination.target.cell) }),
  };
}

/** Every page of the report, met with the rows kept in append and upsert, written at once over the last block. */
function refreshSheet(context: DestinationRefreshContext): DestinationRefresh {
  const { report, status, next, sheet, timeZone, startedAtMs } = context;
  const placement = placementOf(report);
  const { block, fetched, requests, fetchedThrough } = refreshBlock({
    report,
    status,
    source: context.source,
    sheet,
    placement,
    timeZone,
    nowMs: startedAtMs,
    deadlineAtMs: context.deadlineAtMs,
    summary: context.summary,
  });
  const written = sheet.write(placement, block, sameCorner(status.written, placement) ? status.written : undefined);
  if (fetchedThrough) next.fetchedThrough = fetchedThrough;
  else delete next.fetchedThrough;
  const mode = writeModeOf(report);
  if (mode === 'replace') delete next.writtenAs;
  else next.writtenAs = mode;
  return {
    outcome: 'refreshed',
    rows: block.dataRows,
    requests,
    written,
    nextRunAtMs: nextRunAfter(report.schedule, startedAtMs, timeZone),
    rowsWritten: { block, written, fetched },
  };
}
