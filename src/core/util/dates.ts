/**
 * Dates as the Engage API and a spreadsheet see them. The API takes calendar days (yyyyMMdd) for the
 * general report and UTC hours (yyyyMMddHH) for the hourly reports (field notes: hours are UTC). Users
 * give JS Dates (date cells), yyyyMMdd, yyyy-MM-dd or yyyyMMddHH. Going the other way, a report's
 * `day` must become a Date that shows the same calendar day in the spreadsheet's time zone, which needs
 * the UTC instant of local midnight in an IANA zone: computed with Intl.DateTimeFormat, the only time
 * zone database available in both Apps Script V8 and Node.
 */
export const MS_PER_SECOND = 1000;
export const MS_PER_MINUTE = 60 * MS_PER_SECOND;
export const MS_PER_HOUR = 60 * MS_PER_MINUTE;
export const MS_PER_DAY = 24 * MS_PER_HOUR;

export type DateInput = Date | string | number;

export interface CalendarDay {
  year: number;
  /** 1 to 12. */
  month: number;
  /** 1 to 31. */
  day: number;
}

function pad(n: number, width = 2): string {
  let s = String(n);
  while (s.length < width) s = `0${s}`;
  return s;
}

/** How many days the month has (month 1 to 12): 28 to 31. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isValidCalendarDay(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || year < 1900 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

export function formatDay(day: CalendarDay): string {
  return `${pad(day.year, 4)}${pad(day.month)}${pad(day.day)}`;
}

/** yyyyMMddHH of the UTC hour containing `epochMs`. */
export function formatUtcHour(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}`;
}

/**
 * "2026-11-22": a day as messages show it, the way users write it, and as the builder and the
 * formulas take it (the API's yyyyMMdd is for requests).
 */
export function readableDay(day: CalendarDay): string {
  return `${pad(day.year, 4)}-${pad(day.month)}-${pad(day.day)}`;
}

/** The day of "yyyyMMdd" text (the API's days, a saved period's; an hour after it is ignored), unchecked. */
export function compactDayOf(compact: string): CalendarDay {
  return { year: Number(compact.slice(0, 4)), month: Number(compact.slice(4, 6)), day: Number(compact.slice(6, 8)) };
}

/** "2026-11-22" of "20261122". */
export function dashedDay(compact: string): string {
  return readableDay(compactDayOf(compact));
}

/** "20261122" of "2026-11-22" (a date field's value; a time after the day is dropped). */
export function compactDay(dashed: string): string {
  return dashed.slice(0, 10).replace(/-/g, '');
}

/** "2026-11-20 13:00": the UTC hour starting at (or containing) `epochMs`, as the builder and the formulas take it. */
export function utcHourText(epochMs: number): string {
  return `${readableDay(utcDayOf(epochMs))} ${pad(new Date(epochMs).getUTCHours())}:00`;
}

/** "2026-11-20 13:00 UTC": the UTC hour containing `epochMs`, as messages show it. */
export function readableUtcHour(epochMs: number): string {
  return `${utcHourText(epochMs)} UTC`;
}

/** "14:05:30 UTC" (or "2026-11-23 14:05:30 UTC" when not the same UTC day as `nowMs`), for "try again after ...". */
export function formatRetryTime(atMs: number, nowMs?: number): string {
  const at = new Date(atMs);
  const time = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())} UTC`;
  const day = at.toISOString().slice(0, 10);
  if (nowMs === undefined || new Date(nowMs).toISOString().slice(0, 10) === day) return time;
  return `${day} ${time}`;
}

export function utcDayOf(epochMs: number): CalendarDay {
  const d = new Date(epochMs);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function utcMidnightMs(day: CalendarDay): number {
  return Date.UTC(day.year, day.month - 1, day.day);
}

/** The calendar day `days` days after `day` (before it when negative). */
export function addDays(day: CalendarDay, days: number): CalendarDay {
  return utcDayOf(utcMidnightMs(day) + days * MS_PER_DAY);
}

/** The "yyyyMMdd" day `days` days after that of `compact` (before it when negative). */
export function dayAfter(compact: string, days: number): string {
  return formatDay(addDays(compactDayOf(compact), days));
}

/** Days from a to b (b - a), of "yyyyMMdd" days. */
export function daysBetween(a: string, b: string): number {
  return Math.round((utcMidnightMs(compactDayOf(b)) - utcMidnightMs(compactDayOf(a))) / MS_PER_DAY);
}

/** Same calendar day `months` months earlier (clamped to the month's end), in UTC. */
export function subtractMonths(day: CalendarDay, months: number): CalendarDay {
  const totalMonths = day.year * 12 + (day.month - 1) - months;
  const year = Math.floor(totalMonths / 12);
  const month = (totalMonths % 12) + 1;
  return { year, month, day: Math.min(day.day, daysInMonth(year, month)) };
}

const DAY_COMPACT = /^(\d{4})(\d{2})(\d{2})$/;
const DAY_DASHED = /^(\d{4})-(\d{2})-(\d{2})$/;
const HOUR_COMPACT = /^(\d{4})(\d{2})(\d{2})(\d{2})$/;
const HOUR_DASHED = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2})(?::00(?::00)?)?$/;

/** What a date argument turned out to be; `null` when it is not a date at all. */
export type ParsedDateInput = { kind: 'day'; day: CalendarDay } | { kind: 'hour'; day: CalendarDay; hour: number } | null;

/**
 * Reads a string or number date: yyyyMMdd, yyyy-MM-dd, and when `allowHour` also yyyyMMddHH and
 * yyyy-MM-dd HH. Impossible dates (20240231) are refused here rather than by the service.
 */
export function parseDateText(raw: string | number, allowHour: boolean): ParsedDateInput {
  const text = String(raw).trim();
  let m = DAY_COMPACT.exec(text) ?? DAY_DASHED.exec(text);
  if (m) {
    const day = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
    return isValidCalendarDay(day.year, day.month, day.day) ? { kind: 'day', day } : null;
  }
  if (!allowHour) return null;
  m = HOUR_COMPACT.exec(text) ?? HOUR_DASHED.exec(text);
  if (m) {
    const day = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
    const hour = Number(m[4]);
    return isValidCalendarDay(day.year, day.month, day.day) && hour <= 23 ? { kind: 'hour', day, hour } : null;
  }
  return null;
}

// Creating an Intl.DateTimeFormat costs far more than using one: keep one per zone.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when Intl knows the IANA zone name. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock time in `timeZone` at `epochMs`. */
export function wallTimeInZone(epochMs: number, timeZone: string): WallTime {
  const parts = formatterFor(timeZone).formatToParts(new Date(epochMs));
  const w: WallTime = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const p of parts) {
    if (p.type === 'year') w.year = Number(p.value);
    else if (p.type === 'month') w.month = Number(p.value);
    else if (p.type === 'day') w.day = Number(p.value);
    else if (p.type === 'hour') w.hour = Number(p.value) % 24;
    else if (p.type === 'minute') w.minute = Number(p.value);
    else if (p.type === 'second') w.second = Number(p.value);
  }
  return w;
}

/** The calendar day a Date shows in `timeZone` (a date cell is local midnight of the sheet's zone). */
export function calendarDayInZone(epochMs: number, timeZone: string): CalendarDay {
  const w = wallTimeInZone(epochMs, timeZone);
  return { year: w.year, month: w.month, day: w.day };
}

function zoneOffsetMs(epochMs: number, timeZone: string): number {
  const w = wallTimeInZone(epochMs, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(epochMs / 1000) * 1000;
}

/**
 * The UTC instant at which the wall clock in `timeZone` shows the given day and hour. Where that
 * wall time does not exist (a daylight-saving gap) the first instant after the gap is returned, so
 * the result still shows the requested calendar day.
 */
export function zonedTimeToEpochMs(day: CalendarDay, hour: number, timeZone: string): number {
  const asUtc = Date.UTC(day.year, day.month - 1, day.day, hour);
  const firstOffset = zoneOffsetMs(asUtc, timeZone);
  let candidate = asUtc - firstOffset;
  const secondOffset = zoneOffsetMs(candidate, timeZone);
  if (secondOffset !== firstOffset) candidate = asUtc - secondOffset;
  for (let i = 0; i < 4; i++) {
    const w = wallTimeInZone(candidate, timeZone);
    const shown = Date.UTC(w.year, w.month - 1, w.day, w.hour);
    if (shown >= asUtc) break;
    candidate += MS_PER_HOUR;
  }
  return candidate;
}

/** The instant of local midnight of `day` in `timeZone`: a Date that a sheet in that zone shows as `day`. */
export function zonedMidnightMs(day: CalendarDay, timeZone: string): number {
  return zonedTimeToEpochMs(day, 0, timeZone);
}

/**
 * A bound of an hourly report as the epoch ms of a UTC hour. A date alone means hour 00, or for an
 * exclusive end (toDate) hour 00 of the next day, as the spec says for the realtime report. A Date
 * is taken at its UTC hour (field notes).
 */
export function hourBoundMs(parsed: Exclude<ParsedDateInput, null>, isEnd: boolean): number {
  const midnight = utcMidnightMs(parsed.day);
  if (parsed.kind === 'hour') return midnight + parsed.hour * MS_PER_HOUR;
  return isEnd ? midnight + MS_PER_DAY : midnight;
}

export function floorToHourMs(epochMs: number): number {
  return Math.floor(epochMs / MS_PER_HOUR) * MS_PER_HOUR;
}

/** True for any Date, also one made in another realm (a date cell's value), which `instanceof Date` misses. */
export function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}
