/**
 * The "how often" controls shared by the Report tab's Schedule section and the Schedules tab's edit
 * form: every hour, every N hours (hours that divide the day, so slots fall at the same local hours
 * each day), daily at an hour, weekly on a day at an hour, or monthly on a day at an hour (the 29th
 * and 30th say that shorter months use their last day, and the 31st is offered as "the last day"),
 * on the spreadsheet's clock. The values are exactly the server's schedule shape
 * (src/core/schedules/saved/schedule.ts), which validates them again and words the days the same way.
 */
import { describeDayOfMonth, MAX_DAY_OF_MONTH, type Schedule, type Weekday, WEEKDAYS } from '../../src/core';
import { el, field, replaceChildren, select } from '../dom';

/** Every N hours: only divisors of 24, so "every 6 hours" is 00:00, 06:00, 12:00, 18:00 every day. */
const HOUR_STEPS = [2, 3, 4, 6, 8, 12];
const EVERY_LABELS: Record<Schedule['every'], string> = {
  hour: 'Every hour',
  hours: 'Every few hours',
  day: 'Daily',
  week: 'Weekly',
  month: 'Monthly',
};
/** A monthly schedule's first choice: the 1st, a day every month has. */
const DEFAULT_DAY_OF_MONTH = 1;
const DEFAULT_HOUR = 6;

function hourLabel(hour: number): string {
  return `${hour < 10 ? '0' : ''}${hour}:00`;
}

export interface ScheduleFields {
  /** The controls, to put in a form. */
  node: HTMLElement;
  value(): Schedule;
  /** Shows this schedule (a saved report reopened for editing). */
  set(schedule: Schedule): void;
}

/** The selects of a schedule, showing `initial`; the hidden ones keep their defaults. */
function scheduleControls(prefix: string, initial: Schedule) {
  return {
    every: select(
      (Object.keys(EVERY_LABELS) as Schedule['every'][]).map((k) => [k, EVERY_LABELS[k]] as const),
      initial.every,
      { id: `${prefix}-every` },
    ),
    hours: select(
      HOUR_STEPS.map((n) => [String(n), `every ${n} hours`] as const),
      String(initial.every === 'hours' ? initial.hours : 6),
      { id: `${prefix}-hours`, 'aria-label': 'Hours between refreshes' },
    ),
    hour: select(
      Array.from({ length: 24 }, (_, h) => [String(h), `at ${hourLabel(h)}`] as const),
      String('hour' in initial ? initial.hour : DEFAULT_HOUR),
      { id: `${prefix}-hour`, 'aria-label': 'Hour of the day' },
    ),
    weekday: select(
      WEEKDAYS.map((d) => [d, `on ${d[0]!.toUpperCase()}${d.slice(1)}`] as const),
      initial.every === 'week' ? initial.weekday : 'monday',
      { id: `${prefix}-weekday`, 'aria-label': 'Day of the week' },
    ),
    dayOfMonth: select(
      Array.from({ length: MAX_DAY_OF_MONTH }, (_, i) => [String(i + 1), `on ${describeDayOfMonth(i + 1)}`] as const),
      String(initial.every === 'month' ? initial.day : DEFAULT_DAY_OF_MONTH),
      { id: `${prefix}-day`, 'aria-label': 'Day of the month' },
    ),
  };
}
type ScheduleControls = ReturnType<typeof scheduleControls>;

/** The schedule the selects say. */
function scheduleOf({ every, hours, hour, weekday, dayOfMonth }: ScheduleControls): Schedule {
  switch (every.value as Schedule['every']) {
    case 'hour':
      return { every: 'hour' };
    case 'hours':
      return { every: 'hours', hours: Number(hours.value) };
    case 'day':
      return { every: 'day', hour: Number(hour.value) };
    case 'week':
      return { every: 'week', weekday: weekday.value as Weekday, hour: Number(hour.value) };
    case 'month':
      return { every: 'month', day: Number(dayOfMonth.value), hour: Number(hour.value) };
  }
}

/**
 * Controls for a schedule; `prefix` makes the element ids unique (e.g. "schedule" or "edit-<id>");
 * `timeZone` is the spreadsheet's, on whose clock the hours are, named in the hint.
 */
export function scheduleFields(
  prefix: string,
  initial: Schedule = { every: 'day', hour: DEFAULT_HOUR },
  timeZone?: string,
): ScheduleFields {
  const controls = scheduleControls(prefix, initial);
  const { every, hours, hour, weekday, dayOfMonth } = controls;
  const detail = el('div', { class: 'row' });
  const render = () => {
    // The day of the month ("on the 30th (or the last day)") reads whole at 300 px on a line of its own, the hour below it.
    detail.classList.toggle('stacked', every.value === 'month');
    switch (every.value as Schedule['every']) {
      case 'hour':
        return replaceChildren(detail);
      case 'hours':
        return replaceChildren(detail, hours);
      case 'day':
        return replaceChildren(detail, hour);
      case 'week':
        return replaceChildren(detail, weekday, hour);
      case 'month':
        return replaceChildren(detail, dayOfMonth, hour);
    }
  };
  every.addEventListener('change', render);
  render();
  const node = el(
    'div',
    { class: 'schedule-fields' },
    field(
      'Refresh',
      every,
      `On the spreadsheet’s clock${timeZone ? ` (${timeZone})` : ''}; the hourly trigger runs once within each hour.`,
    ),
    detail,
  );
  return {
    node,
    set(schedule) {
      every.value = schedule.every;
      if (schedule.every === 'hours') hours.value = String(schedule.hours);
      if ('hour' in schedule) hour.value = String(schedule.hour);
      if (schedule.every === 'week') weekday.value = schedule.weekday;
      if (schedule.every === 'month') dayOfMonth.value = String(schedule.day);
      render();
    },
    value: () => scheduleOf(controls),
  };
}
