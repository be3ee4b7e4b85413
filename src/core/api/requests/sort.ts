/**
 * The `sort` argument as people write it: "revenue", "revenue desc", "revenue asc", "-revenue"
 * (descending) or "+revenue" (ascending), split into the API's `sort` and `order` parameters and
 * checked against the fields of the report, so a typo is caught before a request is spent.
 */
import type { ValidationProblem } from '../../errors';
import { fieldProblem } from './report-fields';
import type { ReportKind, SortOrder } from '../../spec';
import { quoted } from '../../util/text';

export interface SortSpec {
  field: string;
  /** Absent when the user gave no direction: the service's default (desc) applies. */
  order?: SortOrder;
}

const SORT_PATTERN = /^([+-])?\s*([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)?)(?:\s+(asc|desc|ascending|descending))?$/i;

/**
 * Reads `sort` (and an optional separate `order`); returns the spec or the problems found.
 * `breakdowns` are the effective breakdowns of the request.
 */
export function parseSort(
  kind: ReportKind,
  sort: string,
  order: string | undefined,
  breakdowns: readonly string[],
): { sort: SortSpec } | { problems: ValidationProblem[] } {
  const text = sort.trim();
  const m = SORT_PATTERN.exec(text);
  if (!m) {
    return {
      problems: [
        {
          argument: 'sort',
          message: `sort: ${quoted(sort)} is not a field with an optional direction (write "revenue", "revenue asc" or "-revenue")`,
        },
      ],
    };
  }
  const field = m[2]!;
  let direction: SortOrder | undefined;
  if (m[1] === '-') direction = 'desc';
  if (m[1] === '+') direction = 'asc';
  if (m[3]) {
    const word: SortOrder = m[3].toLowerCase().startsWith('asc') ? 'asc' : 'desc';
    if (direction && direction !== word) {
      return { problems: [{ argument: 'sort', message: `sort: ${quoted(sort)} gives two different directions` }] };
    }
    direction = word;
  }
  const problems: ValidationProblem[] = [];
  if (order !== undefined) {
    const o = order.trim().toLowerCase();
    if (o !== 'asc' && o !== 'desc') {
      problems.push({ argument: 'order', message: `order: ${quoted(order)} must be 'asc' or 'desc'` });
    } else if (direction && direction !== o) {
      problems.push({ argument: 'order', message: `order: ${quoted(order)} contradicts sort ${quoted(sort)}` });
    } else direction = o;
  }
  const problem = fieldProblem(kind, field, breakdowns);
  if (problem) problems.push({ argument: 'sort', message: `sort: ${quoted(field)} ${problem}` });
  if (problems.length) return { problems };
  return { sort: direction ? { field, order: direction } : { field } };
}
