/**
 * Response shapes, checked with zod where a check is cheap and useful: login, lookups and the
 * report envelope. Every schema accepts unknown fields (the spec shows few shapes, and the service
 * may add fields). Report items are deliberately not parsed per row with zod: report-table.ts reads
 * them in one tight loop, which keeps a 100,000-row report cheap.
 */
import * as z from '../../util/zod';
import { ResponseFormatError } from '../../errors';
import { TOKEN_HEADER } from '../../spec';
import { tokenProblem } from './token';
import { normaliseMetrics, toNumberIfNumeric, unwrap } from './values';

/** A count that may arrive wrapped or as a numeric string. */
const countSchema = z.pipe(
  z.transform((v) => toNumberIfNumeric(v)),
  z.int().check(z.minimum(0)),
);

export const reportEnvelopeSchema = z.looseObject({
  items: z.pipe(
    z.transform((v) => (v === undefined || v === null ? [] : v)),
    z.array(z.unknown()),
  ),
  totalItems: z.optional(countSchema),
  metricsSums: z.pipe(
    z.transform((v) => (v === undefined || v === null ? undefined : normaliseMetrics(v))),
    z.optional(z.record(z.string(), z.unknown())),
  ),
});

export interface ReportPage {
  /** Raw items; normalise with report-table.ts. */
  items: Record<string, unknown>[];
  /** Count of all rows after filtering; the page length when the service leaves it out. */
  totalItems: number;
  metricsSums?: Record<string, unknown>;
}

function parseJson(body: string, operation: string, traceId?: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new ResponseFormatError('the body is not JSON', operation, traceId);
  }
}

export function parseReportPage(body: string, operation: string, traceId?: string): ReportPage {
  const json = parseJson(body, operation, traceId);
  // Tolerate a bare array of items, which some gateways produce.
  const result = reportEnvelopeSchema.safeParse(Array.isArray(json) ? { items: json } : json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ResponseFormatError(`${issue.path.join('.') || 'body'}: ${issue.message}`, operation, traceId);
  }
  const items = result.data.items as Record<string, unknown>[];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new ResponseFormatError(`items[${i}] is not an object`, operation, traceId);
    }
  }
  const page: ReportPage = { items, totalItems: result.data.totalItems ?? items.length };
  if (result.data.metricsSums) page.metricsSums = result.data.metricsSums;
  return page;
}

/**
 * A report page as answered, its items read (parsed and checked, as parseReportPage does) only when
 * first asked for, and the `totalItems` its body's end states, read without parsing the items: the
 * paging plans the pages after a first page from that, so they go out before its thousands of items
 * are parsed. The same page read whole always agrees with the stated figure, and `read()` throws
 * what parseReportPage throws.
 */
export interface ReportAnswer {
  /** The body's `totalItems` as its end states it; undefined when the body does not end as below. */
  readonly statedTotal: number | undefined;
  read(): ReportPage;
}

/**
 * The end of a report body that names its `totalItems` beyond doubt: the last key but `metricsSums`
 * (an object of numbers) of the object the body closes, that is of the envelope itself, as the
 * service answers (`..."totalItems":49361,"metricsSums":{"revenue":12.5}}`). No quote in it can be
 * escaped, so none of it can lie inside a string of a valid body; a body that is not valid JSON
 * fails in read().
 */
const NUMBER_MEMBER = String.raw`"[^"\\]*"\s*:\s*(?:-?[\d.eE+-]+|null|true|false)\s*`;
const STATED_TOTAL = new RegExp(
  String.raw`[,{]\s*"totalItems"\s*:\s*(\d{1,15})\s*(?:,\s*"metricsSums"\s*:\s*\{\s*(?:${NUMBER_MEMBER}(?:,\s*${NUMBER_MEMBER})*)?\})?\s*\}\s*$`,
);
/** How much of a body's end is searched for it: a few thousand metric sums at most. */
const STATED_TOTAL_TAIL_CHARS = 8_192;

/** The `totalItems` a report body's end states (STATED_TOTAL), or undefined. */
export function statedTotalItems(body: string): number | undefined {
  const match = STATED_TOTAL.exec(body.length > STATED_TOTAL_TAIL_CHARS ? body.slice(-STATED_TOTAL_TAIL_CHARS) : body);
  return match ? Number(match[1]) : undefined;
}

/** A page's answer whose items are parsed on first use (ReportAnswer); `onError` may add to what a failure says. */
export function reportAnswer(body: string, operation: string, traceId?: string, onError?: (e: unknown) => void): ReportAnswer {
  let page: ReportPage | undefined;
  return {
    statedTotal: statedTotalItems(body),
    read() {
      if (!page) {
        try {
          page = parseReportPage(body, operation, traceId);
        } catch (e) {
          onError?.(e);
          throw e;
        }
      }
      return page;
    },
  };
}

/**
 * The token of a /login answer: `{"SVC-TOKEN-V1": "..."}` per the field notes, `{"token": "..."}`
 * from other clients, or a bare string (JSON or plain text). Keys are matched without case.
 */
export function parseLoginToken(body: string, traceId?: string): string {
  const text = body.trim();
  let json: unknown = text;
  if (text.startsWith('{') || text.startsWith('"')) json = parseJson(text, 'GET /login', traceId);
  let token: unknown;
  if (typeof json === 'string') token = json;
  else if (json && typeof json === 'object' && !Array.isArray(json)) {
    const o = json as Record<string, unknown>;
    const wanted = [TOKEN_HEADER.toLowerCase(), 'token', 'access_token', 'accesstoken'];
    for (const name of wanted) {
      const key = Object.keys(o).find((k) => k.toLowerCase() === name);
      if (key !== undefined) {
        token = unwrap(o[key]);
        break;
      }
    }
  }
  if (typeof token !== 'string' || tokenProblem(token.trim()) !== undefined) {
    throw new ResponseFormatError(`no token in the login answer (expected a field named ${TOKEN_HEADER})`, 'GET /login', traceId);
  }
  return token.trim();
}

/** One lookup entry: id and name always, any other field kept. */
export interface LookupEntry {
  id: string;
  name: string;
  [field: string]: unknown;
}

const ID_KEYS = ['id', 'externalId', 'code', 'key', 'value'];
const NAME_KEYS = ['name', 'displayName', 'title', 'description', 'label'];

/**
 * Lookup answers: a bare array, or an object whose list sits under any key (`publishers`, `widgets`,
 * `countries`, `data`, ...). Entries may be strings (then id and name are that string).
 */
export function parseLookup(body: string, operation: string, traceId?: string): LookupEntry[] {
  const json = unwrap(parseJson(body, operation, traceId));
  let list: unknown[] | undefined;
  if (Array.isArray(json)) list = json;
  else if (json && typeof json === 'object') {
    const values = Object.values(json as Record<string, unknown>);
    list = values.find((v): v is unknown[] => Array.isArray(v));
  }
  if (!list) throw new ResponseFormatError('no list in the answer', operation, traceId);
  return list.map((entry, i) => {
    const e = unwrap(entry);
    if (typeof e === 'string' || typeof e === 'number') return { id: String(e), name: String(e) };
    if (!e || typeof e !== 'object' || Array.isArray(e)) throw new ResponseFormatError(`entry ${i} is not an object`, operation, traceId);
    const o = e as Record<string, unknown>;
    const pick = (keys: string[]): string | undefined => {
      for (const k of keys) {
        const v = unwrap(o[k]);
        if (typeof v === 'string' && v !== '') return v;
        if (typeof v === 'number') return String(v);
      }
      return undefined;
    };
    const id = pick(ID_KEYS);
    if (id === undefined) throw new ResponseFormatError(`entry ${i} has no id`, operation, traceId);
    const rest: Record<string, unknown> = {};
    for (const k of Object.keys(o)) if (k !== 'id' && k !== 'name') rest[k] = unwrap(o[k]);
    return { ...rest, id, name: pick(NAME_KEYS) ?? id };
  });
}
