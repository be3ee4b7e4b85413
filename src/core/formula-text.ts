/**
 * The ENGAGE_* formula equivalent to a report built in the sidebar, written the way a user would
 * type it: text arguments in double quotes (quotes doubled), skipped optional arguments as "" so
 * the positions stay right, and the refresh argument last. With the named refresh cell
 * (EngageRefresh, changed by "Refresh all" and scheduled runs) as refresh argument, the formula
 * fetches again whenever that cell changes.
 */
import type { BuilderRequest } from './builder-request';
import { REPORT_SPECS } from './spec';

export const FORMULA_NAMES = { main: 'ENGAGE_REPORT', externalId: 'ENGAGE_EXTERNALID_REPORT', realtime: 'ENGAGE_REALTIME_REPORT' } as const;

/** A Sheets string literal. */
export function quoteFormulaText(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * `=ENGAGE_REPORT("id","2026-11-01","2026-11-07","day,country","revenue:gt:1","revenue desc","","EUR",2,EngageRefresh)`.
 * `refreshReference` is a range name or A1 reference (not quoted); omitted when undefined.
 */
export function reportFormula(request: BuilderRequest, refreshReference?: string): string {
  const spec = REPORT_SPECS[request.kind];
  const text = (value: string | undefined) => quoteFormulaText(value ?? '');
  const sort = request.sort ? (request.order ? `${request.sort} ${request.order}` : request.sort) : '';
  // Signature order: entityId, fromDate, toDate, breakdowns, filter, sort, maxRows, [currencyCode], [decDigits], refresh.
  const args: string[] = [
    text(request.entityId), text(request.fromDate), text(request.toDate),
    text((request.breakdowns ?? []).join(',')), text(request.filter), text(sort), '""',
  ];
  if (spec.acceptsCurrency) args.push(text(request.currencyCode));
  if (spec.acceptsDecDigits) args.push(request.decDigits === undefined ? '""' : String(request.decDigits));
  if (refreshReference) args.push(refreshReference);
  else while (args[args.length - 1] === '""') args.pop(); // trailing empty arguments say nothing
  return `=${FORMULA_NAMES[request.kind]}(${args.join(',')})`;
}
