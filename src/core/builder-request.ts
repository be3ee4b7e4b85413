/**
 * The report the sidebar builds, as plain data that travels through google.script.run: one shape
 * for "Run to sheet", "Insert formula" and "Save to schedule", so the three ask for the same rows.
 * `toReportInput` turns it into the core's ReportInput, which validates every rule before a request.
 */
import { ValidationError } from './errors';
import type { ReportInput } from './report-request';
import { REPORT_SPECS, type ReportKind } from './spec';

export interface BuilderRequest {
  kind: ReportKind;
  entityId: string;
  /** "yyyy-MM-dd" (general report) or "yyyy-MM-dd HH:00" UTC (hourly reports, end excluded). */
  fromDate: string;
  toDate: string;
  breakdowns: string[];
  /** A filter expression, built by the sidebar with buildFilter; "" for none. */
  filter?: string;
  /** A field to sort on; "" for the service's default (revenue). */
  sort?: string;
  order?: 'asc' | 'desc';
  /** General and external-ID reports only. */
  currencyCode?: string;
  /** General report only, 0 to 6. */
  decDigits?: number;
}

/** Where "Run to sheet" writes. */
export type RunTarget =
  | { type: 'newSheet'; sheetName?: string }
  | { type: 'existingSheet'; sheetName: string }
  | { type: 'activeCell' };

const KINDS = Object.keys(REPORT_SPECS) as ReportKind[];

/** Checks the shape (the sidebar is trusted as little as any caller) and builds the core's input. */
export function toReportInput(request: unknown): { kind: ReportKind; input: ReportInput } {
  if (!request || typeof request !== 'object') throw ValidationError.single('request', 'must be a report built in the sidebar');
  const r = request as Partial<BuilderRequest>;
  if (!KINDS.includes(r.kind as ReportKind)) throw ValidationError.single('kind', `must be one of ${KINDS.join(', ')}`);
  const kind = r.kind as ReportKind;
  const spec = REPORT_SPECS[kind];
  const input: ReportInput = { entityId: String(r.entityId ?? ''), fromDate: String(r.fromDate ?? ''), toDate: String(r.toDate ?? '') };
  if (Array.isArray(r.breakdowns) && r.breakdowns.length > 0) input.breakdowns = r.breakdowns.map(String);
  if (r.filter) input.filter = String(r.filter);
  if (r.sort) input.sort = r.order ? `${r.sort} ${r.order}` : String(r.sort);
  if (spec.acceptsCurrency && r.currencyCode) input.currencyCode = String(r.currencyCode);
  if (spec.acceptsDecDigits && r.decDigits !== undefined && r.decDigits !== null && String(r.decDigits) !== '') input.decDigits = r.decDigits;
  return { kind, input };
}
