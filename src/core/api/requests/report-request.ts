/**
 * Report requests: the arguments a user or the sidebar gives for one of the three reports, checked
 * against every rule of the spec's report sections and Limits table before anything is sent, and
 * turned into the query the API expects. Every problem is collected and each names the parameter, the
 * value and the rule ("breakdowns: 'referrer' and 'country' cannot be combined"), because a user
 * fixing a formula wants all of them at once. Empty strings and nulls mean "not given": that is how a
 * custom function receives an empty cell.
 */
import * as z from '../../util/zod';
import { isValidTimeZone, type DateInput } from '../../util/dates';
import { ISO_4217_CURRENCY_CODES, isSupportedCurrency, SUPPORTED_CURRENCY_CODES } from '../../util/currencies';
import { ValidationError, type ValidationProblem, FilterSyntaxError } from '../../errors';
import { buildFilter, parseFilter, type FilterCondition, type ParsedFilterCondition } from './filters';
import { breakdownCombinationProblems, effectiveBreakdowns, fieldProblem } from './report-fields';
import { filterTypeProblem } from './filter-fields';
import { type ALL_METRICS, resolveMetrics } from './report-metrics';
import { parseSort } from './sort';
import {
  DEC_DIGITS_MAX,
  DEC_DIGITS_MIN,
  EXTERNAL_ID_MAX_LENGTH,
  REPORT_SPECS,
  type ReportKind,
  type ReportSpec,
  type SortOrder,
} from '../../spec';
import { quoted, showValue } from '../../util/text';
import { unknownNameHint } from '../../util/names';
import { type AddProblem, reportDates } from './report-dates';
import { publisherIdProblem, type PublisherSelection } from './publisher-list';

/** Arguments of a report, as loose as users give them. */
export interface ReportInput {
  entityId: string;
  fromDate: DateInput;
  toDate: DateInput;
  /** An array or a comma-separated string. */
  breakdowns?: string | readonly string[];
  /** Metric names as an array or a comma-separated string, or "all"; not given means the default set. */
  metrics?: string | readonly string[];
  /** "revenue", "revenue desc", "-revenue", ... */
  sort?: string;
  order?: string;
  /** An expression ("revenue:gt:10;country.id:in:US,DE") or built conditions. */
  filter?: string | readonly FilterCondition[];
  currencyCode?: string;
  decDigits?: number | string;
  /** Rows per page (default: the report's maximum when paging). */
  limit?: number | string;
  /** Index of the first row. */
  offset?: number | string;
}

export interface ValidationContext {
  /** Epoch ms of "now" from the injected clock (realtime and doc windows). */
  nowMs: number;
  /** IANA zone of the spreadsheet: the calendar day a Date argument shows (general report). Default UTC. */
  timeZone?: string;
}

/** A validated request: everything needed to send it and to lay out its table. */
export interface ReportQuery {
  kind: ReportKind;
  spec: ReportSpec;
  entityId: string;
  /** Effective breakdowns in column order (hourly reports always start with externalId). */
  breakdowns: string[];
  /**
   * The metric columns, in the API's spelling and the order asked for; "all" keeps every metric
   * and field the API sends. The API has no metrics parameter, so this never changes the request.
   */
  metrics: string[] | typeof ALL_METRICS;
  /** Query parameters except limit and offset, as sent. */
  params: Record<string, string>;
  /** The caller's page size, when given. */
  limit?: number;
  offset: number;
  /** The period as sent: yyyyMMdd for the general report, yyyyMMddHH (UTC, toDate exclusive) otherwise. */
  fromDate: string;
  toDate: string;
  sort?: { field: string; order?: SortOrder };
  filter?: ParsedFilterCondition[];
  /**
   * Set on the query of a report of several publishers (publisher-reports.ts): `entityId` is then
   * the list's text or "all", and `breakdowns` start with the publisher columns.
   */
  publishers?: Exclude<PublisherSelection, { type: 'one' }>;
  /** With `publishers`: the publishers' rows are added together, without publisher columns (`-publisher`, publisher-combined.ts). */
  publishersTogether?: boolean;
}

const notGiven = (v: unknown) => (v === '' || v === null ? undefined : v);
const integerLike = (v: unknown) => {
  const u = notGiven(v);
  return typeof u === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(u) ? Number(u) : u;
};
const optionalInt = (min: number, max: number, rule: string) =>
  z.pipe(
    z.transform(integerLike),
    z.optional(
      z
        .int({ error: `must be a whole number ${rule}` })
        .check(
          z.minimum(min, { error: `is below the minimum: it must be a whole number ${rule}` }),
          z.maximum(max, { error: `is above the maximum: it must be a whole number ${rule}` }),
        ),
    ),
  );
const optionalString = (rule: string) => z.pipe(z.transform(notGiven), z.optional(z.string({ error: rule })));

/** Shape checks shared by the three reports; semantic rules follow in `buildReportQuery`. */
function inputSchema(spec: ReportSpec) {
  return z.strictObject(
    {
      entityId: z.pipe(
        z.transform(notGiven),
        z.string({ error: 'is required: the hashed publisher ID from your account manager' }).check(
          z.trim(),
          z.minLength(1, { error: 'is required: the hashed publisher ID from your account manager' }),
          z.superRefine((id, ctx) => {
            const problem = publisherIdProblem(id);
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          }),
        ),
      ),
      fromDate: z.pipe(z.transform(notGiven), z.any().check(z.refine((v) => v !== undefined, { error: 'is required' }))),
      toDate: z.pipe(z.transform(notGiven), z.any().check(z.refine((v) => v !== undefined, { error: 'is required' }))),
      breakdowns: z.pipe(
        z.transform(notGiven),
        z.optional(z.union([z.string(), z.array(z.string())], { error: 'must be a list of names or a comma-separated text' })),
      ),
      metrics: z.pipe(
        z.transform(notGiven),
        z.optional(z.union([z.string(), z.array(z.string())], { error: 'must be a list of metric names or a comma-separated text' })),
      ),
      sort: optionalString('must be a text such as "revenue desc"'),
      order: optionalString(`must be 'asc' or 'desc'`),
      filter: z.pipe(
        z.transform(notGiven),
        z.optional(z.union([z.string(), z.array(z.any())], { error: 'must be a filter expression such as "revenue:gt:10"' })),
      ),
      currencyCode: optionalString('must be a three-letter currency code such as USD'),
      decDigits: optionalInt(DEC_DIGITS_MIN, DEC_DIGITS_MAX, `from ${DEC_DIGITS_MIN} to ${DEC_DIGITS_MAX}`),
      limit: optionalInt(1, spec.pageMax, `from 1 to ${spec.pageMax} for the ${spec.title}`),
      offset: optionalInt(0, Number.MAX_SAFE_INTEGER, 'of 0 or more'),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? 'is not a parameter of this report' : undefined) },
  );
}

function valueAt(input: unknown, key: string): unknown {
  return input && typeof input === 'object' ? (input as Record<string, unknown>)[key] : undefined;
}

/** The arguments once their shapes are checked. */
type ReportArgs = z.output<ReturnType<typeof inputSchema>>;

/**
 * Checks a report's arguments and builds the query. Throws a ValidationError listing every problem;
 * nothing is sent until this succeeds.
 */
export function buildReportQuery(kind: ReportKind, input: ReportInput, context: ValidationContext): ReportQuery {
  const spec = REPORT_SPECS[kind];
  const problems: ValidationProblem[] = [];
  const add: AddProblem = (argument, value, rule, showTheValue = true) =>
    problems.push({ argument, message: showTheValue ? `${argument}: ${showValue(value)} ${rule}` : `${argument}: ${rule}` });

  const timeZone = context.timeZone ?? 'UTC';
  if (!isValidTimeZone(timeZone)) add('timeZone', timeZone, 'is not an IANA time zone such as Europe/Berlin');

  const parsed = inputSchema(spec).safeParse(input);
  if (!parsed.success) addSchemaProblems(spec, input, parsed.error.issues, add);
  const args = parsed.success ? parsed.data : undefined;
  const raw = (input ?? {}) as ReportInput;

  const effective = checkedBreakdowns(kind, spec, args, raw, add);

  // Metrics: known names for these breakdowns, or "all", or the default set.
  // A metrics value of the wrong type was reported by the schema; then the default set stands in.
  const metricsShapeOk = parsed.success || !parsed.error.issues.some((i) => i.path[0] === 'metrics');
  const rawMetrics = metricsShapeOk ? notGiven(raw.metrics) : undefined;
  const chosen = resolveMetrics(kind, typeof rawMetrics === 'string' || Array.isArray(rawMetrics) ? rawMetrics : undefined, effective);
  problems.push(...chosen.problems);

  const { fromDate, toDate } = reportDates(spec, notGiven(raw.fromDate), notGiven(raw.toDate), {
    nowMs: context.nowMs,
    timeZone,
    breakdowns: effective,
    add,
  });
  checkReportOnlyParameters(spec, args, raw, add);
  const sort = checkedSort(kind, args, effective, problems, add);
  const { filter, filterText } = checkedFilter(kind, args, effective, problems, add);

  if (problems.length > 0) throw new ValidationError(problems);
  const a = args!;
  const params: Record<string, string> = {
    entityId: a.entityId,
    fromDate,
    toDate,
    breakdowns: effective.join(','),
  };
  if (sort) {
    params.sort = sort.field;
    if (sort.order) params.order = sort.order;
  }
  if (filter && filterText) params.filter = filterText;
  if (a.currencyCode !== undefined) params.currencyCode = a.currencyCode.trim().toUpperCase();
  if (a.decDigits !== undefined) params.decDigits = String(a.decDigits);
  const query: ReportQuery = {
    kind,
    spec,
    entityId: a.entityId,
    breakdowns: effective,
    metrics: chosen.metrics,
    params,
    offset: a.offset ?? 0,
    fromDate,
    toDate,
  };
  if (a.limit !== undefined) query.limit = a.limit;
  if (sort) query.sort = sort;
  if (filter) query.filter = filter;
  return query;
}

/** The schema's findings as problems, each naming its argument. */
function addSchemaProblems(spec: ReportSpec, input: ReportInput, issues: readonly z.core.$ZodIssue[], add: AddProblem): void {
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(key, undefined, `is not a parameter of the ${spec.title}`, false);
      continue;
    }
    const argument = String(issue.path[0] ?? 'arguments');
    const raw = valueAt(input, argument);
    // A missing value is shown as missing, not as '' or undefined.
    add(argument, raw, issue.message, notGiven(raw) !== undefined);
  }
}

/** Breakdowns: known names, no duplicates, the general report's count and pair rules; the effective list. */
function checkedBreakdowns(kind: ReportKind, spec: ReportSpec, args: ReportArgs | undefined, raw: ReportInput, add: AddProblem): string[] {
  const rawBreakdowns = notGiven(raw.breakdowns);
  const given = args?.breakdowns ?? (typeof rawBreakdowns === 'string' || Array.isArray(rawBreakdowns) ? rawBreakdowns : undefined);
  const requested =
    given === undefined
      ? undefined
      : (typeof given === 'string' ? given.split(',') : [...given]).map((b) => String(b).trim()).filter((b) => b !== '');
  const breakdowns: string[] = [];
  for (const name of requested ?? []) {
    const known = spec.breakdowns.find((b) => b.toLowerCase() === name.toLowerCase());
    if (!known) add('breakdowns', name, `is not a breakdown of the ${spec.title}${unknownNameHint(name, spec.breakdowns)}`);
    else if (breakdowns.includes(known)) add('breakdowns', known, 'is listed twice');
    else breakdowns.push(known);
  }
  const effective = effectiveBreakdowns(kind, breakdowns);
  for (const problem of breakdownCombinationProblems(kind, effective)) {
    if (problem.rule === 'count')
      add('breakdowns', breakdowns, `has ${problem.count} breakdowns; the general report allows at most ${problem.max}`);
    else add('breakdowns', undefined, `'${problem.pair[0]}' and '${problem.pair[1]}' cannot be combined`, false);
  }
  return effective;
}

/** Parameters that only some reports take: the currency and the revenue's rounding. */
function checkReportOnlyParameters(spec: ReportSpec, args: ReportArgs | undefined, raw: ReportInput, add: AddProblem): void {
  if (args?.currencyCode !== undefined) {
    if (!spec.acceptsCurrency) add('currencyCode', args.currencyCode, `is not accepted by the ${spec.title} (its revenue is always USD)`);
    else if (!/^[A-Za-z]{3}$/.test(args.currencyCode.trim()))
      add('currencyCode', args.currencyCode, 'must be a three-letter currency code such as USD');
    else if (!ISO_4217_CURRENCY_CODES.has(args.currencyCode.trim().toUpperCase()))
      add('currencyCode', args.currencyCode, 'is not an ISO 4217 currency code (such as USD, EUR or GBP)');
    else if (!isSupportedCurrency(args.currencyCode))
      add('currencyCode', args.currencyCode, `is not a currency Engage reports in (use ${SUPPORTED_CURRENCY_CODES.join(', ')})`);
  }
  if (args?.decDigits !== undefined && !spec.acceptsDecDigits)
    add('decDigits', raw.decDigits, `is not accepted by the ${spec.title} (only the general report rounds revenue)`);
}

/** Sort and order: an order alone sorts by revenue. */
function checkedSort(
  kind: ReportKind,
  args: ReportArgs | undefined,
  effective: string[],
  problems: ValidationProblem[],
  add: AddProblem,
): ReportQuery['sort'] {
  if (args?.sort !== undefined) {
    const result = parseSort(kind, args.sort, args.order, effective);
    if ('problems' in result) problems.push(...result.problems);
    else return result.sort;
  } else if (args?.order !== undefined) {
    const o = args.order.trim().toLowerCase();
    if (o !== 'asc' && o !== 'desc') add('order', args.order, `must be 'asc' or 'desc'`);
    else return { field: 'revenue', order: o };
  }
  return undefined;
}

/** Filter: syntax, then field names, operators and values against the field's type, and the 110-character external-ID rule. */
function checkedFilter(
  kind: ReportKind,
  args: ReportArgs | undefined,
  effective: string[],
  problems: ValidationProblem[],
  add: AddProblem,
): { filter?: ParsedFilterCondition[]; filterText?: string } {
  if (args?.filter === undefined) return {};
  let filter: ParsedFilterCondition[] | undefined;
  let filterText: string | undefined;
  try {
    filterText = typeof args.filter === 'string' ? args.filter.trim() : buildFilter(args.filter as FilterCondition[]);
    filter = parseFilter(filterText);
  } catch (e) {
    if (e instanceof ValidationError) problems.push(...e.problems);
    else throw e;
  }
  for (const c of filter ?? []) {
    const fieldRule = fieldProblem(kind, c.field, effective);
    // The operator and values are checked against the field's type once the field itself is right.
    const rule = fieldRule ? `${quoted(c.field)} ${fieldRule}` : filterTypeProblem(kind, c);
    if (rule) problems.push(...new FilterSyntaxError('filter', c.position, filterText!, rule).problems);
    if ((c.field === 'externalId' || c.field === 'externalSecondaryId') && c.op !== 'between') checkExternalIdLengths(c, add);
  }
  return { filter: filter && filter.length === 0 ? undefined : filter, filterText };
}

function checkExternalIdLengths(c: ParsedFilterCondition, add: AddProblem): void {
  const values = typeof c.value === 'string' ? [c.value] : Array.isArray(c.value) ? (c.value as string[]) : [String(c.value)];
  for (const v of values) {
    if (v.length > EXTERNAL_ID_MAX_LENGTH) {
      add(
        'filter',
        v.length > 40 ? `${v.slice(0, 40)}...` : v,
        `is ${v.length} characters long; ${c.field} values have at most ${EXTERNAL_ID_MAX_LENGTH}`,
      );
    }
  }
}

/** The address of one page of a report. */
export function reportPageUrl(baseUrl: string, query: ReportQuery, page: { limit: number; offset: number }): string {
  return buildUrl(baseUrl, query.spec.path, { ...query.params, limit: String(page.limit), offset: String(page.offset) });
}

/** `base + path + ?query`, with every value percent-encoded. */
export function buildUrl(baseUrl: string, path: string, params?: Record<string, string>): string {
  const base = baseUrl.replace(/\/+$/, '');
  const qs = params
    ? Object.keys(params)
        .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k]!)}`)
        .join('&')
    : '';
  return qs ? `${base}${path}?${qs}` : `${base}${path}`;
}
