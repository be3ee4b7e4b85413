/**
 * Times as the sidebar shows them: always in the spreadsheet's time zone, always with its name
 * ("2026-11-20 14:05 (Europe/Berlin)"), never in the browser's own zone, so a schedule's hour, its
 * last and next runs and a quota's restart read on the same clock as the sheet. Report days are UTC
 * days (Engage counts days in UTC); `utcMidnightOnSheetClock` says where one starts on the sheet's clock.
 */

function parts(atMs: number, timeZone: string): Record<string, string> {
  const found: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    weekday: 'short',
    hourCycle: 'h23',
  });
  for (const part of format.formatToParts(new Date(atMs))) found[part.type] = part.value;
  return found;
}

/** "2026-11-20 14:05 (Europe/Berlin)"; `weekday` puts "Fri" first. */
export function sheetTime(at: number | string, timeZone: string, options: { weekday?: boolean; zone?: boolean } = {}): string {
  const atMs = typeof at === 'number' ? at : Date.parse(at);
  const p = parts(atMs, timeZone);
  const text = `${options.weekday ? `${p.weekday} ` : ''}${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
  return options.zone === false ? text : `${text} (${timeZone})`;
}

/** "14:05" on the sheet's clock. */
export function sheetClock(at: number | string, timeZone: string): string {
  const p = parts(typeof at === 'number' ? at : Date.parse(at), timeZone);
  return `${p.hour}:${p.minute}`;
}

/** Where a UTC day starts on the sheet's clock today: "01:00" in Europe/Berlin in winter, "00:00" in UTC. */
export function utcMidnightOnSheetClock(timeZone: string, nowMs = Date.now()): string {
  const midnight = Date.UTC(new Date(nowMs).getUTCFullYear(), new Date(nowMs).getUTCMonth(), new Date(nowMs).getUTCDate());
  return sheetClock(midnight, timeZone);
}
