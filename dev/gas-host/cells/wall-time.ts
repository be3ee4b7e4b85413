/**
 * The wall time of an instant in a time zone, read with Intl: the one reading of zones the host's
 * clock-related parts share (TODAY() and NOW() in formulas, Utilities.formatDate, dates typed into cells).
 */

export interface WallTime {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 (Sunday) to 6. */
  weekday: number;
  /** The zone's offset at that instant (its wall time minus UTC), to the second. */
  offsetMs: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  return format;
}

export function wallTime(ms: number, timeZone: string): WallTime {
  const parts = formatOf(timeZone).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const year = Number(get('year'));
  const month = Number(get('month'));
  const day = Number(get('day'));
  const hour = Number(get('hour')) % 24;
  const minute = Number(get('minute'));
  const second = Number(get('second'));
  const offsetMs = Date.UTC(year, month - 1, day, hour, minute, second) - Math.floor(ms / 1000) * 1000;
  return { year, month, day, hour, minute, second, weekday: WEEKDAYS.indexOf(get('weekday')), offsetMs };
}
