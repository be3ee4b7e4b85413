/**
 * The period: the presets of the report type (days counted back from today in the spreadsheet's zone
 * for the general report, 24-hour UTC windows for the hourly ones, from the core's date-presets.ts),
 * a custom range, one line saying what the period covers, and, once, why report days are UTC days:
 * Engage counts each day from midnight to midnight UTC, so a day of the report starts at 01:00 on a
 * Berlin sheet's clock, the clock every time in this sidebar is shown on.
 */
import {
  customDaysCheck,
  type DatePreset,
  type DateRange,
  hourWindowCheck,
  hourWindowFrom,
  MS_PER_HOUR,
  PRESET_LABELS,
  presetRange,
  presetsFor,
  REALTIME_WINDOW_HOURS,
} from '../../../../src/core';
import { el, field, replaceChildren } from '../../../dom';
import { sheetTime, utcMidnightOnSheetClock } from '../../../time';
import type { PartContext } from '../part';

export interface PeriodPicker {
  /** The Period field, the custom-range controls and the period's line, in form order. */
  readonly nodes: readonly HTMLElement[];
  /** Offers the presets of the builder's report type, its usual one chosen. */
  reset(): void;
  preset(): DatePreset;
  /** The custom range's first and last day as typed (general report). */
  customDays(): { fromDate: string; toDate: string };
  /** The bounds of the request, or the first thing to fix. */
  range(): DateRange | string;
  /** Redraws the period's line: what it says can follow the breakdowns (the doc breakdown's 12 months). */
  refresh(): void;
  /** A reopened report's period: its preset, or its own range ("yyyy-MM-dd", "yyyy-MM-dd HH:00") as a custom one. */
  set(preset: DatePreset | undefined, fromDate: string, toDate: string): void;
}

/** "yyyy-MM-dd" → the days' line: "2026-11-13 to 2026-11-19 (UTC days)". */
function utcDaysText(from: string, to: string): string {
  return `${from}${from === to ? '' : ` to ${to}`} (${from === to ? 'UTC day' : 'UTC days'})`;
}

/** `timeZone()` is the spreadsheet's zone, in which the general report's days are counted. */
export function periodPicker(ctx: PartContext & { timeZone(): string }): PeriodPicker {
  const preset = el('select', { id: 'report-preset' });
  const customBox = el('div', { id: 'report-custom' });
  const fromInput = el('input', { type: 'date', id: 'report-from' });
  const toInput = el('input', { type: 'date', id: 'report-to' });
  const startInput = el('input', { type: 'datetime-local', id: 'report-start', step: 3600 });
  const period = el('div', { class: 'hint', id: 'report-period', 'aria-live': 'polite' });
  const daysNote = el('div', { class: 'hint field', id: 'report-days-note' });

  function range(): DateRange | string {
    const kind = ctx.choice().kind;
    const chosen = preset.value as DatePreset;
    const tz = ctx.timeZone();
    if (chosen !== 'custom') {
      const found = presetRange(kind, chosen, Date.now(), tz);
      // The days are Engage's, which are UTC days, whichever zone "today" was counted in.
      return kind === 'main' ? { ...found, description: `${PRESET_LABELS[chosen]}: ${utcDaysText(found.fromDate, found.toDate)}` } : found;
    }
    if (kind === 'main') return customDaysRange(fromInput.value, toInput.value, ctx.choice().breakdowns, tz);
    return customHourWindow(kind === 'realtime', startInput.value);
  }

  function render(): void {
    const kind = ctx.choice().kind;
    if (preset.value !== 'custom') replaceChildren(customBox);
    else if (kind === 'main') replaceChildren(customBox, el('div', { class: 'row' }, field('From', fromInput), field('To', toInput)));
    else replaceChildren(customBox, field('First hour (UTC)', startInput, 'The report covers the 24 hours from this hour.'));
    const tz = ctx.timeZone();
    const current = range();
    replaceChildren(period, periodLine(current, kind === 'main', tz));
    showPeriodProblem(period, typeof current === 'string' ? current : undefined, [fromInput, toInput, startInput]);
    replaceChildren(daysNote, daysNoteText(kind === 'main', tz));
  }

  /**
   * Custom starts from the days of the preset it replaces, so the user edits a period instead of
   * typing one from nothing.
   */
  let lastPreset = preset.value as DatePreset;
  preset.addEventListener('change', () => {
    const chosen = preset.value as DatePreset;
    if (chosen === 'custom' && lastPreset && lastPreset !== 'custom') {
      const found = presetRange(ctx.choice().kind, lastPreset, Date.now(), ctx.timeZone());
      fillCustomRange({ fromInput, toInput, startInput }, found.fromDate, found.toDate);
    }
    lastPreset = chosen;
  });
  for (const control of [preset, fromInput, toInput, startInput]) {
    control.addEventListener('change', () => {
      render();
      ctx.changed();
    });
  }
  return {
    nodes: [field('Period', preset), customBox, period, daysNote],
    reset() {
      const kind = ctx.choice().kind;
      replaceChildren(
        preset,
        ...presetsFor(kind).map((p) =>
          el('option', { value: p, selected: p === (kind === 'main' ? 'last7' : 'last24h') }, PRESET_LABELS[p]),
        ),
      );
      lastPreset = preset.value as DatePreset;
      render();
    },
    set(chosen, fromDate, toDate) {
      const offered = Array.from(preset.options).map((o) => o.value);
      preset.value = chosen && chosen !== 'custom' && offered.includes(chosen) ? chosen : 'custom';
      if (preset.value === 'custom') fillCustomRange({ fromInput, toInput, startInput }, fromDate, toDate);
      lastPreset = preset.value as DatePreset;
      render();
    },
    preset: () => preset.value as DatePreset,
    customDays: () => ({ fromDate: fromInput.value, toDate: toInput.value }),
    range,
    refresh: render,
  };
}

/** A custom range of the general report: both days, in order, and what the core says of them (the doc breakdown's months). */
function customDaysRange(from: string, to: string, breakdowns: readonly string[], timeZone: string): DateRange | string {
  if (!from || !to) return 'Choose the first and last day.';
  if (to < from) return `To: the last day (${to}) is before From (${from}).`;
  const check = customDaysCheck(from, to, breakdowns, Date.now(), timeZone);
  if (check.problem) return check.problem;
  const note = check.note ? `. ${check.note}` : '';
  return { fromDate: from, toDate: to, description: `${utcDaysText(from, to)}${note}` };
}

/** A custom 24-hour window of an hourly report from its first hour (`datetime-local` text, UTC); realtime's within its window. */
function customHourWindow(realtime: boolean, start: string): DateRange | string {
  const window = hourWindowFrom(start);
  if (!window) return 'Choose the first hour (UTC) of the 24-hour window.';
  const check = hourWindowCheck(window.fromDate, Date.now());
  if (check.problem) return check.problem;
  if (realtime) {
    const earliest = Date.now() - REALTIME_WINDOW_HOURS * MS_PER_HOUR;
    const fromMs = Date.parse(`${start.slice(0, 13)}:00:00Z`);
    if (fromMs < earliest - MS_PER_HOUR) return `Realtime data covers only the last ${REALTIME_WINDOW_HOURS} hours: choose a later start.`;
  }
  return window;
}

/**
 * The period's line as an error while it says what to fix (reversed days, a day not chosen...): red,
 * announced, the custom fields outlined and read with it; else a hint.
 */
function showPeriodProblem(line: HTMLElement, problem: string | undefined, inputs: readonly HTMLInputElement[]): void {
  line.classList.toggle('hint', problem === undefined);
  line.classList.toggle('field-error', problem !== undefined);
  line.setAttribute('role', problem === undefined ? 'status' : 'alert');
  // The field the message names ("To: the last day … is before From"), or every custom field it may be about.
  const named = problem === undefined ? [] : inputs.filter((input) => input.isConnected && fieldNamed(input, problem));
  for (const input of inputs) {
    const invalid = named.includes(input);
    if (invalid) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
    if (invalid) input.setAttribute('aria-describedby', line.id);
    else if (input.getAttribute('aria-describedby') === line.id) input.removeAttribute('aria-describedby');
  }
}

/** Whether the problem is about this field: it starts with its label, or names no field and the field is empty or the only one. */
function fieldNamed(input: HTMLInputElement, problem: string): boolean {
  const label = input.labels?.[0]?.textContent ?? '';
  if (/^[A-Z][\w ()]*: /.test(problem)) return label !== '' && problem.startsWith(`${label}: `);
  return input.value === '' || input.id === 'report-start';
}

/** The period's line: what it covers, or the first thing to fix. */
function periodLine(current: DateRange | string, daily: boolean, timeZone: string): string {
  if (typeof current === 'string') return current;
  if (daily) return current.description;
  // An hourly window is in UTC hours, as Engage takes them; its bounds on the sheet's clock follow.
  const onSheetClock = (text: string) => sheetTime(Date.parse(`${text.replace(' ', 'T')}:00Z`), timeZone, { zone: false });
  return `${current.description}, that is ${onSheetClock(current.fromDate)} to ${onSheetClock(current.toDate)} in ${timeZone}`;
}

/** Why report days (or hours) are UTC ones, on the spreadsheet's clock. */
function daysNoteText(daily: boolean, timeZone: string): string {
  return daily
    ? `Report days are UTC days, as Engage counts them: each runs from ${utcMidnightOnSheetClock(timeZone)} to ${utcMidnightOnSheetClock(timeZone)} in ${timeZone}, the spreadsheet's time zone, in which this sidebar shows every time.`
    : `These reports are kept by UTC hour, as Engage counts them; this sidebar shows every other time in ${timeZone}, the spreadsheet's time zone.`;
}

/** The custom controls at a range's bounds ("yyyy-MM-dd", or "yyyy-MM-dd HH:00" for an hourly window's first hour). */
function fillCustomRange(
  inputs: { fromInput: HTMLInputElement; toInput: HTMLInputElement; startInput: HTMLInputElement },
  fromDate: string,
  toDate: string,
): void {
  inputs.fromInput.value = fromDate.slice(0, 10);
  inputs.toInput.value = toDate.slice(0, 10);
  if (fromDate.length > 10) inputs.startInput.value = `${fromDate.slice(0, 10)}T${fromDate.slice(11, 13)}:00`;
}
