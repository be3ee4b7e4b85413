/**
 * "Create dashboard": one button under the publisher picker that makes a new sheet, "Engage
 * dashboard", for the publisher chosen there (or several, or all): key figures of the last 7 days
 * against the 7 before, revenue and RPM by day over 30 days with a chart, and the top 10 countries,
 * platforms and widgets, all ENGAGE_* formulas that Refresh all keeps current. It follows the picker
 * only, not the rest of the form, and says so; the server checks the choice again before it writes.
 */
import { el, notice, replaceChildren } from '../../dom';
import type { PanelContext } from '../../panel';
import { failureText } from '../../server';
import type { Busy } from './part';

export interface DashboardButton {
  readonly node: HTMLElement;
  /** Follows the publisher picker: its label names the choice, off while nothing is chosen. */
  render(): void;
  readonly button: HTMLButtonElement;
}

/** `publisher()` is the picker's entityId ("" when none is chosen) and `label()` the choice in words. */
export function dashboardButton(
  ctx: PanelContext,
  picker: { id(): string; label(): string | undefined },
  busy: Busy,
  /** The new sheet is the active one now: what reads the sheets and the active cell reads them again. */
  sheetChanged: () => void,
): DashboardButton {
  const button = el('button', { type: 'button', id: 'create-dashboard' }, 'Create dashboard');
  const hint = el('div', { class: 'hint', id: 'dashboard-hint' });
  const outcome = el('div', { id: 'dashboard-outcome', 'aria-live': 'polite' });

  function render(): void {
    const chosen = picker.id() !== '';
    button.disabled = busy.isBusy() || !chosen;
    replaceChildren(
      hint,
      chosen
        ? `A new sheet for ${picker.label() ?? 'this choice'}: key figures of the last 7 days against the 7 before, ` +
            'revenue and RPM by day with a chart, and the top 10 countries, platforms and widgets (the rest of this form does not apply).'
        : 'Choose a publisher, several or all for a dashboard.',
    );
  }

  button.addEventListener('click', () => {
    void (async () => {
      if (busy.isBusy() || picker.id() === '') return;
      busy.setBusy(true);
      replaceChildren(outcome);
      try {
        const created = await ctx.server.createDashboard(picker.id());
        // Until another action of the tab or a sign-in change supersedes it (moments.ts).
        ctx.moments.say(
          outcome,
          notice('success', `Created '${created.sheetName}' for ${created.subject}: its figures load in a few seconds.`),
          ['action', 'sign-in'],
        );
        sheetChanged();
      } catch (error) {
        ctx.moments.say(outcome, notice('error', failureText(error)), ['action', 'sign-in']);
      } finally {
        busy.setBusy(false);
        render();
      }
    })();
  });

  return { node: el('div', { class: 'field', id: 'dashboard' }, el('div', { class: 'row' }, button), hint, outcome), render, button };
}
