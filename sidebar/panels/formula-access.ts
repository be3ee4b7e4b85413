/**
 * The Account tab's "Formulas in this spreadsheet" card: whose Engage sign-in the spreadsheet's
 * formulas use (its owner's, also when an editor types them), what the owner lets them use (every
 * publisher, the publishers ticked, or none), and, for the owner, a warning naming the other people
 * who can edit. The owner changes the choice here; anyone else sees it read-only, with who can change
 * it. The server (getFormulaAccess, setFormulaAccess) decides who is the owner and refuses the rest.
 */
import type { FormulaAccessMode, FormulaAccessView, SidebarState } from '../../src/core';
import { el, notice, replaceChildren } from '../dom';
import type { PanelContext } from '../panel';
import { failureText } from '../server';
import { sheetTime } from '../time';

const MODE_LABELS: Record<FormulaAccessMode, string> = {
  all: 'Every publisher your sign-in sees (the default)',
  chosen: 'Only the publishers ticked here',
  none: 'None: no formula may use your sign-in or API key',
};

/** Mounts the card into `box`; it loads from the server and reloads after a sign-in or sign-out. */
export function mountFormulaAccess(box: HTMLElement, ctx: PanelContext): { reload(): void } {
  let signedIn = ctx.state()?.session.signedIn ?? false;
  const reload = () => {
    void ctx.server.getFormulaAccess().then(
      (view) => render(box, view, ctx),
      (error) => replaceChildren(box, el('h2', {}, 'Formulas in this spreadsheet'), notice('error', failureText(error))),
    );
  };
  ctx.onStateChange((state: SidebarState) => {
    if (state.session.signedIn !== signedIn) {
      signedIn = state.session.signedIn;
      reload();
    }
  });
  replaceChildren(box, el('h2', {}, 'Formulas in this spreadsheet'), el('p', { class: 'hint' }, 'Loading…'));
  reload();
  return { reload };
}

/** How the choice reads in one line: for an editor's read-only view and the owner's summary. */
function summary(view: FormulaAccessView): string {
  if (view.mode === 'all') return 'Formulas may use every publisher the owner’s sign-in sees.';
  if (view.mode === 'none') return 'Formulas may not use the owner’s Engage sign-in or API key at all.';
  return `Formulas may use only ${view.publishers.map((p) => p.name || p.id).join(', ')}.`;
}

function render(box: HTMLElement, view: FormulaAccessView, ctx: PanelContext): void {
  const timeZone = ctx.state()?.timeZone ?? 'UTC';
  const when = view.setAt ? ` Set by ${view.setBy ?? 'the owner'} ${sheetTime(Date.parse(view.setAt), timeZone)}.` : '';
  const parts: Array<Node | null> = [
    el('h2', {}, 'Formulas in this spreadsheet'),
    el('p', { id: 'formulas-sentence' }, view.sentence),
    view.youOwn ? el('p', { class: 'hint' }, 'You own this spreadsheet.') : null,
    view.editorsWarning ? el('div', { id: 'formulas-editors-warning' }, notice('warning', view.editorsWarning)) : null,
  ];
  if (!view.canChange) {
    parts.push(
      el('p', { id: 'formulas-setting' }, summary(view), when),
      el('p', { class: 'hint', id: 'formulas-who' }, view.whoCanChange ?? ''),
    );
    replaceChildren(box, ...parts);
    return;
  }
  parts.push(choiceForm(view, ctx, when));
  replaceChildren(box, ...parts);
}

/** The owner's form: the three choices, the publishers to tick for the second, and Save. */
function choiceForm(view: FormulaAccessView, ctx: PanelContext, when: string): HTMLFormElement {
  const status = el('div', { class: 'form-status' });
  const checks = el('div', { class: 'checks publisher-checks', id: 'formulas-publishers' });
  const radios = (Object.keys(MODE_LABELS) as FormulaAccessMode[]).map((mode) =>
    el('input', { type: 'radio', name: 'formulas-mode', value: mode, id: `formulas-mode-${mode}`, checked: mode === view.mode }),
  );
  const mode = () => radios.find((r) => r.checked)?.value as FormulaAccessMode;
  const showChecks = () => {
    checks.hidden = mode() !== 'chosen';
  };
  for (const radio of radios) radio.addEventListener('change', showChecks);
  fillPublisherChecks(checks, view, ctx);
  showChecks();
  const form = el(
    'form',
    { id: 'formulas-form' },
    el(
      'fieldset',
      { class: 'metric-group' },
      el('legend', {}, 'Formulas in this spreadsheet may use'),
      ...radios.map((radio, i) =>
        el(
          'div',
          { class: 'choice' },
          radio,
          el('label', { for: radio.id }, MODE_LABELS[radio.value as FormulaAccessMode]),
          i === 1 ? checks : null,
        ),
      ),
    ),
    el(
      'p',
      { class: 'hint' },
      'A formula for anything else shows #ERROR! and says that you can allow it here. With chosen publishers, "all" in a formula means those of them your sign-in sees.',
      when,
    ),
    el('div', { class: 'actions' }, el('button', { type: 'submit', id: 'formulas-save' }, 'Save')),
    status,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const picked = Array.from(checks.querySelectorAll<HTMLInputElement>('input[type="checkbox"]'))
      .filter((c) => c.checked)
      .map((c) => c.value);
    const policy = mode() === 'chosen' ? { mode: 'chosen', publishers: picked } : { mode: mode() };
    const controls = Array.from(form.querySelectorAll<HTMLInputElement | HTMLButtonElement>('input, button'));
    for (const c of controls) c.disabled = true;
    replaceChildren(status);
    void ctx.server.setFormulaAccess(policy).then(
      (saved) => {
        const box = form.parentElement;
        if (box) render(box, saved, ctx);
        box?.querySelector('#formulas-form .form-status')?.appendChild(notice('success', `Saved. ${summary(saved)}`));
      },
      (error) => {
        for (const c of controls) c.disabled = false;
        replaceChildren(status, notice('error', failureText(error)));
      },
    );
  });
  return form;
}

/** The publishers to tick: those the sign-in sees (loaded), the chosen ones ticked; signed out, the chosen ones alone. */
function fillPublisherChecks(checks: HTMLElement, view: FormulaAccessView, ctx: PanelContext): void {
  const chosen = new Set(view.publishers.map((p) => p.id));
  const chip = (id: string, name: string) =>
    el('label', { class: 'chip', title: id }, el('input', { type: 'checkbox', value: id, checked: chosen.has(id) }), name || id);
  if (!ctx.state()?.session.signedIn) {
    replaceChildren(
      checks,
      ...view.publishers.map((p) => chip(p.id, p.name)),
      el('span', { class: 'hint' }, 'Sign in to choose publishers.'),
    );
    return;
  }
  replaceChildren(checks, el('span', { class: 'hint' }, 'Loading your publishers…'));
  void ctx.server.listPublishers().then(
    (publishers) => {
      const listed = new Set(publishers.map((p) => p.id));
      // A chosen publisher the sign-in no longer sees stays ticked, so saving keeps it unless unticked.
      const gone = view.publishers.filter((p) => !listed.has(p.id));
      replaceChildren(checks, ...publishers.map((p) => chip(p.id, p.name)), ...gone.map((p) => chip(p.id, p.name)));
    },
    (error) => replaceChildren(checks, notice('error', failureText(error))),
  );
}
