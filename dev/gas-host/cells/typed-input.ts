/**
 * How Sheets reads a string that a script writes (Range.setValue/setValues) or a user types into a
 * cell, once the formula and apostrophe rules have been applied (state/spreadsheets/spreadsheet.ts). Two readings:
 * - kind (the default): plain numbers and TRUE/FALSE become values, everything else stays text;
 * - strict (switch `textParsedAsTyped`): the Sheets API's USER_ENTERED, "strings may be converted to
 *   numbers, dates, etc. following the same rules that are applied when entering text into a cell via
 *   the Google Sheets UI" (developers.google.com/sheets/api/reference/rest/v4/ValueInputOption), in
 *   the spreadsheet's locale: dates, times and date-times, money, percentages, fractions, numbers
 *   with thousands separators or an exponent, negatives in parentheses and booleans in any case, for
 *   en_US and de_DE (a comma-decimal locale).
 * A date or time becomes a Date: its wall time in the spreadsheet's zone (a time alone on Sheets' day
 * 0, 30 December 1899, as Apps Script returns time cells), with the number format Sheets gives it. In a
 * cell whose explicit number format is not a date or time format, it is the day's serial number instead,
 * as getValues returns a date in a number-formatted cell. Google documents the rule, not its grammar:
 * the patterns below are the host's model of what Sheets accepts (UNCONFIRMED pattern by pattern), and
 * the formats are the patterns Sheets shows for such input (UNCONFIRMED).
 */
import { wallTime } from './wall-time';

/** What a cell holds once read: the values a script gets back from getValues. */
export type CellValue = string | number | boolean | Date;

/** The locales whose typing rules the host models. */
export const HOST_LOCALES = ['en_US', 'de_DE'] as const;
export type HostLocale = (typeof HOST_LOCALES)[number];

export function isHostLocale(locale: string): locale is HostLocale {
  return (HOST_LOCALES as readonly string[]).includes(locale);
}

/** A string as a cell holds it: the value, and the number format the input gives a cell of automatic format. */
export interface TypedValue {
  value: CellValue;
  numberFormat?: string;
}

export interface TypedTextContext {
  locale: HostLocale;
  /** The spreadsheet's zone: a date is midnight there. */
  timeZone: string;
  /** Now (epoch ms): a date typed without its year is in this year, in the spreadsheet's zone. */
  nowMs: number;
  /** The cell's explicit number format; undefined for Sheets' automatic format. */
  cellFormat?: string;
}

// ---------------------------------------------------------------- the kind reading

const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The kind reading: plain numbers ("00123" is 123, "1e3" 1000) and TRUE/FALSE in any case; any other string is text. */
export function readKindly(text: string): CellValue {
  const trimmed = text.trim();
  if (PLAIN_NUMBER.test(trimmed)) return Number(trimmed);
  if (/^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
  return text;
}

// ---------------------------------------------------------------- the strict reading: locales

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

interface LocaleRules {
  decimal: string;
  group: string;
  currency: string;
  booleans: Record<string, boolean>;
  /** Day and month in a numeric date: month first (en_US) or day first (de_DE). */
  monthFirst: boolean;
  /** Separators of a numeric date. */
  dateSeparator: RegExp;
  months: Record<string, number>;
  formats: {
    date: string;
    monthYear: string;
    dateTime: string;
    time: string;
    timeSeconds: string;
    money: (decimals: boolean) => string;
  };
}

const ENGLISH_MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const GERMAN_MONTHS = [
  'januar',
  'februar',
  'märz',
  'april',
  'mai',
  'juni',
  'juli',
  'august',
  'september',
  'oktober',
  'november',
  'dezember',
];

/** Full names and their first three letters (and "sept"), lower case, to the month's number. */
function monthNames(...lists: string[][]): Record<string, number> {
  const names: Record<string, number> = { sept: 9 };
  for (const list of lists) {
    list.forEach((name, i) => {
      names[name] = i + 1;
      names[name.slice(0, 3)] = i + 1;
    });
  }
  return names;
}

const LOCALES: Record<HostLocale, LocaleRules> = {
  en_US: {
    decimal: '.',
    group: ',',
    currency: '$',
    booleans: { true: true, false: false },
    monthFirst: true,
    dateSeparator: /[/-]/,
    months: monthNames(ENGLISH_MONTHS),
    formats: {
      date: 'M/d/yyyy',
      monthYear: 'mmmm yyyy',
      dateTime: 'M/d/yyyy H:mm:ss',
      time: 'h:mm',
      timeSeconds: 'h:mm:ss',
      money: (decimals) => (decimals ? '"$"#,##0.00' : '"$"#,##0'),
    },
  },
  de_DE: {
    decimal: ',',
    group: '.',
    currency: '€',
    // TRUE/FALSE as well as WAHR/FALSCH: the stricter reading of a German spreadsheet.
    booleans: { true: true, false: false, wahr: true, falsch: false },
    monthFirst: false,
    dateSeparator: /[./]/,
    months: { ...monthNames(ENGLISH_MONTHS, GERMAN_MONTHS), mrz: 3, maerz: 3 },
    formats: {
      date: 'dd.MM.yyyy',
      monthYear: 'MMMM yyyy',
      dateTime: 'dd.MM.yyyy HH:mm:ss',
      time: 'HH:mm',
      timeSeconds: 'HH:mm:ss',
      money: (decimals) => (decimals ? '#,##0.00 "€"' : '#,##0 "€"'),
    },
  },
};

// ---------------------------------------------------------------- numbers

interface ParsedNumber {
  value: number;
  format?: string;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A number's digits in the locale: grouped by thousands or not, with decimals; undefined when it is not one. */
function numberCore(text: string, rules: LocaleRules): { value: number; grouped: boolean; decimals: boolean } | undefined {
  const g = escapeRegExp(rules.group);
  const d = escapeRegExp(rules.decimal);
  const match = new RegExp(`^(?:(\\d{1,3}(?:${g}\\d{3})+)|(\\d+))(?:${d}(\\d*))?$|^${d}(\\d+)$`).exec(text);
  if (!match) return undefined;
  const whole = (match[1] ?? match[2] ?? '0').split(rules.group).join('');
  const fraction = match[3] ?? match[4] ?? '';
  return { value: Number(`${whole}.${fraction}0`), grouped: match[1] !== undefined, decimals: fraction !== '' };
}

function parseNumber(text: string, rules: LocaleRules): ParsedNumber | undefined {
  const d = escapeRegExp(rules.decimal);
  const scientific = new RegExp(`^([+-]?)(\\d+(?:${d}\\d*)?|${d}\\d+)[eE]([+-]?\\d+)$`).exec(text);
  if (scientific) {
    const mantissa = Number(scientific[2]!.replace(rules.decimal, '.'));
    const value = mantissa * 10 ** Number(scientific[3]);
    return { value: scientific[1] === '-' ? -value : value, format: '0.00E+00' };
  }
  const fraction = /^([+-]?)(\d+) +(\d+)\/(\d+)$/.exec(text);
  if (fraction) {
    const denominator = Number(fraction[4]);
    if (denominator === 0) return undefined;
    const value = Number(fraction[2]) + Number(fraction[3]) / denominator;
    return { value: fraction[1] === '-' ? -value : value, format: '# ?/?' };
  }
  let body = text;
  const inParentheses = /^\((.*)\)$/.exec(body);
  if (inParentheses) body = inParentheses[1]!.trim();
  let negative = false;
  const sign = () => {
    if (body.startsWith('-') || body.startsWith('+')) {
      negative = negative !== body.startsWith('-');
      body = body.slice(1).trim();
    }
  };
  sign();
  let money = false;
  if (body.startsWith(rules.currency)) {
    money = true;
    body = body.slice(rules.currency.length).trim();
    sign();
  } else if (body.endsWith(rules.currency)) {
    money = true;
    body = body.slice(0, -rules.currency.length).trim();
  }
  let percent = false;
  if (!money && body.endsWith('%')) {
    percent = true;
    body = body.slice(0, -1).trim();
  }
  // "(-7)" is not a number Sheets reads: parentheses are the sign.
  if (inParentheses && negative) return undefined;
  const core = numberCore(body, rules);
  if (!core) return undefined;
  let value = percent ? core.value / 100 : core.value;
  if (negative || inParentheses) value = -value;
  if (money) return { value, format: rules.formats.money(core.decimals) };
  if (percent) return { value, format: core.decimals ? '0.00%' : '0%' };
  if (core.grouped) return { value, format: core.decimals ? '#,##0.00' : '#,##0' };
  return { value };
}

// ---------------------------------------------------------------- dates and times

interface ParsedDate {
  wall: WallTime;
  format: string;
  /** A time alone: on Sheets' day 0. */
  timeOnly?: boolean;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function fullYear(text: string): number {
  const year = Number(text);
  // Sheets reads two-digit years 00 to 29 as 2000s, 30 to 99 as 1900s (UNCONFIRMED cut-off).
  return text.length > 2 ? year : year < 30 ? 2000 + year : 1900 + year;
}

/** This year in the spreadsheet's zone. */
function currentYear(context: TypedTextContext): number {
  return Number(new Intl.DateTimeFormat('en-US', { timeZone: context.timeZone, year: 'numeric' }).format(new Date(context.nowMs)));
}

function day(year: number, month: number, dayOfMonth: number): WallTime | undefined {
  if (month < 1 || month > 12 || dayOfMonth < 1 || dayOfMonth > daysInMonth(year, month)) return undefined;
  return { year, month, day: dayOfMonth, hour: 0, minute: 0, second: 0 };
}

function parseDate(text: string, rules: LocaleRules, context: TypedTextContext): ParsedDate | undefined {
  const iso = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(text);
  if (iso) {
    const wall = day(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    return wall && { wall, format: 'yyyy-mm-dd' };
  }
  const parts = text.split(rules.dateSeparator);
  // Numeric: M/D, M/D/Y (en_US); D.M, D.M., D.M.Y (de_DE).
  if (parts.length >= 2 && parts.length <= 3 && /^\d{1,2}$/.test(parts[0]!) && /^\d{1,2}$/.test(parts[1]!)) {
    const yearText = parts[2];
    if (yearText !== undefined && yearText !== '' && !/^(\d{2}|\d{4})$/.test(yearText)) return undefined;
    const [month, dayOfMonth] = rules.monthFirst ? [Number(parts[0]), Number(parts[1])] : [Number(parts[1]), Number(parts[0])];
    const wall = day(yearText ? fullYear(yearText) : currentYear(context), month, dayOfMonth);
    return wall && { wall, format: rules.formats.date };
  }
  const words = text
    .replace(/,/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/\.$/, ''));
  const monthOf = (word: string | undefined) => (word === undefined ? undefined : rules.months[word.toLowerCase()]);
  const isDay = (word: string | undefined) => word !== undefined && /^\d{1,2}$/.test(word);
  const isYear = (word: string | undefined) => word !== undefined && /^\d{4}$/.test(word);
  // "March 2024", "Mar 2024": the first of the month.
  if (words.length === 2 && monthOf(words[0]) && isYear(words[1])) {
    const wall = day(Number(words[1]), monthOf(words[0])!, 1);
    // "Mar 2024" keeps its short month: mmm rather than mmmm.
    const short = words[0]!.length <= 4 && !['june', 'july', 'juni', 'juli'].includes(words[0]!.toLowerCase());
    return wall && { wall, format: short ? rules.formats.monthYear.replace(/mmmm/i, (m) => m.slice(1)) : rules.formats.monthYear };
  }
  // "2 March 2024", "2. März 2024", "March 2, 2024", and either without its year.
  let dayText: string | undefined;
  let month: number | undefined;
  let yearText: string | undefined;
  if (words.length >= 2 && words.length <= 3 && isDay(words[0]) && monthOf(words[1])) {
    [dayText, month, yearText] = [words[0], monthOf(words[1]), words[2]];
  } else if (words.length >= 2 && words.length <= 3 && monthOf(words[0]) && isDay(words[1])) {
    [dayText, month, yearText] = [words[1], monthOf(words[0]), words[2]];
  } else {
    return undefined;
  }
  if (yearText !== undefined && !isYear(yearText)) return undefined;
  const wall = day(yearText ? Number(yearText) : currentYear(context), month!, Number(dayText));
  return wall && { wall, format: rules.formats.date };
}

const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?m\.?)?$/i;

function parseTime(text: string, rules: LocaleRules): ParsedDate | undefined {
  const match = TIME.exec(text);
  if (!match) return undefined;
  let hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = match[3] === undefined ? 0 : Number(match[3]);
  const meridiem = match[4]?.toLowerCase();
  if (minute > 59 || second > 59) return undefined;
  if (meridiem) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (meridiem === 'p' ? 12 : 0);
  } else if (hour > 23) {
    return undefined;
  }
  const base = match[3] === undefined ? rules.formats.time : rules.formats.timeSeconds;
  const format = meridiem ? `${base.replace(/^HH/, 'h')} am/pm` : base;
  return { wall: { year: 1899, month: 12, day: 30, hour, minute, second }, format, timeOnly: true };
}

function parseDateTime(text: string, rules: LocaleRules, context: TypedTextContext): ParsedDate | undefined {
  const time = parseTime(text, rules);
  if (time) return time;
  const date = parseDate(text, rules, context);
  if (date) return date;
  const split = /^(.*\S)\s+(\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?)$/i.exec(text);
  if (!split) return undefined;
  const datePart = parseDate(split[1]!, rules, context);
  const timePart = parseTime(split[2]!, rules);
  if (!datePart || !timePart) return undefined;
  const { hour, minute, second } = timePart.wall;
  return { wall: { ...datePart.wall, hour, minute, second }, format: rules.formats.dateTime };
}

/** Wall-clock offset of the zone at `ms` (zone time minus UTC), to the second. */
function zoneOffsetMs(ms: number, timeZone: string): number {
  return wallTime(ms, timeZone).offsetMs;
}

/** The instant a wall time of the zone names (the offset found twice, for a change of offset in between). */
function wallTimeToEpochMs(wall: WallTime, timeZone: string): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const first = asUtc - zoneOffsetMs(asUtc, timeZone);
  return asUtc - zoneOffsetMs(first, timeZone);
}

/** Sheets' serial number of a wall time: days since 30 December 1899, the time as a fraction of a day. */
function serialOf(wall: WallTime): number {
  const days = (Date.UTC(wall.year, wall.month - 1, wall.day) - Date.UTC(1899, 11, 30)) / 86_400_000;
  return days + (wall.hour * 3600 + wall.minute * 60 + wall.second) / 86_400;
}

/** A number format that shows a date or a time (its d, m, y, h or s outside quotes and brackets). */
export function isDateTimeFormat(format: string): boolean {
  return /[dmyhs]/i.test(format.replace(/"[^"]*"|\[[^\]]*\]|\\./g, ''));
}

// ---------------------------------------------------------------- the strict reading

/**
 * The strict reading of a string (switch `textParsedAsTyped`): as Sheets reads text typed into a cell
 * in the spreadsheet's locale. Text it does not read as a value stays exactly as written.
 */
export function readAsTyped(text: string, context: TypedTextContext): TypedValue {
  const trimmed = text.trim();
  if (trimmed === '') return { value: text };
  const rules = LOCALES[context.locale];
  const bool = rules.booleans[trimmed.toLowerCase()];
  if (bool !== undefined) return { value: bool };
  const number = parseNumber(trimmed, rules);
  if (number) return number.format ? { value: number.value, numberFormat: number.format } : { value: number.value };
  const date = parseDateTime(trimmed, rules, context);
  if (!date) return { value: text };
  if (context.cellFormat !== undefined && !isDateTimeFormat(context.cellFormat)) return { value: serialOf(date.wall) };
  return { value: new Date(wallTimeToEpochMs(date.wall, context.timeZone)), numberFormat: date.format };
}
