/**
 * The publisher picker: the publishers the user's Engage account may report on, from the API, with
 * a reload button and a line that says when the list is loading, empty or failed. Below two or more
 * publishers the list offers "All publishers" (the report of every publisher the user sees, entityId
 * "all") and "Several publishers…", which shows one checkbox per publisher: the ticked ones make the
 * entityId list "id1,id2". Either way the report is one table with the publisher in front, and Run to
 * sheet, Insert formula and Save to schedule take the same entityId text.
 */
import { ALL_PUBLISHERS, MAX_PUBLISHERS_PER_REPORT } from '../../../../src/core';
import { el, notice, replaceChildren } from '../../../dom';
import { failureText, type ServerClient } from '../../../server';

/** The list's value that shows the checkboxes; never sent. */
const SEVERAL = '__several';

export interface PublisherPicker {
  readonly node: HTMLElement;
  /** Lists the publishers from the API again, keeping the chosen one where it is still listed. */
  load(): Promise<void>;
  /** Whether a list has arrived (an empty or failed one has not). */
  loaded(): boolean;
  /** The entityId of the choice: one publisher's ID, the ticked IDs joined with commas, "all", or "" when none is chosen. */
  id(): string;
  /** The choice in words: the publisher's name as listed, "All publishers" or "3 publishers". */
  name(): string | undefined;
  /** Whether the report covers several publishers (its table then starts with the publisher's ID and name). */
  several(): boolean;
  /**
   * Chooses a reopened report's entityId, now or when the list arrives: one ID (one not listed is
   * shown by its ID), "all", or a comma list, which ticks those publishers under "Several publishers…".
   */
  choose(entityId: string): void;
}

/** `changed` is called after the user picks a publisher and after each load. */
export function publisherPicker(server: ServerClient, changed: () => void): PublisherPicker {
  const picker = el('select', { id: 'report-publisher', required: true });
  const status = el('div', { class: 'hint', id: 'report-publisher-status' });
  const checks = el('div', { class: 'checks publisher-checks', id: 'report-publishers', role: 'group', 'aria-label': 'Publishers' });
  const count = el('div', { class: 'hint', id: 'report-publishers-count', 'aria-live': 'polite' });
  const several = el('div', { id: 'report-publishers-several', hidden: true }, checks, count);
  let publishers: Array<{ id: string; name: string }> = [];
  /** The entityId a reopened report asked for before the list arrived. */
  let wanted: string | undefined;

  const ticked = () => tickedIds(checks);
  const renderSeveral = () => showSeveral(picker, several, checks, count);

  function choose(entityId: string): void {
    const ids = entityId.split(',').map((id) => id.trim());
    if (ids.length > 1) {
      picker.value = SEVERAL;
      for (const box of Array.from(checks.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')))
        box.checked = ids.includes(box.value);
    } else {
      if (!Array.from(picker.options).some((o) => o.value === entityId)) picker.appendChild(el('option', { value: entityId }, entityId));
      picker.value = entityId;
    }
    renderSeveral();
  }

  async function load(): Promise<void> {
    replaceChildren(status, 'Loading publishers…');
    try {
      publishers = await server.listPublishers();
      const previous = wanted ?? picker.value;
      const wasTicked = new Set(ticked());
      replaceChildren(picker, ...publisherOptions(publishers, previous));
      replaceChildren(checks, ...publishers.map((p) => publisherCheck(p, wasTicked.has(p.id))));
      if (wanted) choose(wanted);
      wanted = undefined;
      replaceChildren(status, publishers.length ? '' : 'Your Engage user has no publishers: ask your account manager.');
    } catch (error) {
      replaceChildren(status, notice('error', failureText(error)));
    }
    renderSeveral();
    changed();
  }

  const picked = () => {
    renderSeveral();
    changed();
  };
  picker.addEventListener('change', picked);
  checks.addEventListener('change', picked);
  const reload = el(
    'button',
    { type: 'button', class: 'icon', title: 'Reload publishers', 'aria-label': 'Reload publishers', onclick: () => void load() },
    '⟳',
  );
  const id = (): string => (picker.value === SEVERAL ? ticked().join(',') : picker.value);
  return {
    node: el(
      'div',
      { class: 'field' },
      el('label', { for: picker.id }, 'Publisher'),
      el('div', { class: 'row' }, picker, reload),
      several,
      status,
    ),
    load,
    loaded: () => publishers.length > 0,
    id,
    name: () => choiceName(picker, publishers, ticked()),
    several: () => picker.value === ALL_PUBLISHERS || (picker.value === SEVERAL && ticked().length > 1),
    choose(entityId) {
      if (picker.options.length === 0) wanted = entityId;
      choose(entityId);
    },
  };
}

/** What the ticked count means for the report: none, too many, one publisher alone, or one table of several. */
function tickedNote(n: number): HTMLElement | string {
  if (n === 0) return notice('warning', 'Tick the publishers to report on.');
  if (n > MAX_PUBLISHERS_PER_REPORT)
    return notice('warning', `${n} ticked: a report covers at most ${MAX_PUBLISHERS_PER_REPORT} publishers.`);
  if (n === 1) return '1 ticked: the report of that publisher alone.';
  return `${n} ticked: one table, each row with its publisher's ID and name in front.`;
}

/** The list's options, `previous` selected: each publisher, then, from two publishers on, All and Several. */
function publisherOptions(publishers: ReadonlyArray<{ id: string; name: string }>, previous: string): HTMLOptionElement[] {
  const options = publishers.map((p) => el('option', { value: p.id, selected: p.id === previous }, `${p.name}`));
  // All and Several mean something from two publishers on.
  if (publishers.length > 1) {
    options.push(
      el('option', { value: ALL_PUBLISHERS, selected: previous === ALL_PUBLISHERS }, `All publishers (${publishers.length})`),
      el('option', { value: SEVERAL, selected: previous === SEVERAL }, 'Several publishers…'),
    );
  }
  return options;
}

/** The choice in words; undefined under "Several publishers…" with none ticked. */
function choiceName(
  picker: HTMLSelectElement,
  publishers: ReadonlyArray<{ id: string; name: string }>,
  ticked: string[],
): string | undefined {
  if (picker.value === ALL_PUBLISHERS) return 'All publishers';
  const chosen = picker.value === SEVERAL ? ticked : [];
  if (chosen.length === 1) return publishers.find((p) => p.id === chosen[0])?.name;
  if (chosen.length > 1) return `${chosen.length} publishers`;
  return picker.value === SEVERAL ? undefined : (picker.selectedOptions[0]?.textContent ?? undefined);
}

/** A publisher's checkbox under "Several publishers…". */
function publisherCheck(publisher: { id: string; name: string }, checked: boolean): HTMLElement {
  return el(
    'label',
    { class: 'chip', title: publisher.id },
    el('input', { type: 'checkbox', value: publisher.id, checked }),
    publisher.name,
  );
}

/** The publishers ticked under "Several publishers…", in the list's order. */
function tickedIds(checks: HTMLElement): string[] {
  return Array.from(checks.querySelectorAll<HTMLInputElement>('input[type="checkbox"]'))
    .filter((c) => c.checked)
    .map((c) => c.value);
}

/** Shows the checkboxes under "Several publishers…" alone, each ticked one marked, and what the count means. */
function showSeveral(picker: HTMLSelectElement, several: HTMLElement, checks: HTMLElement, count: HTMLElement): void {
  several.hidden = picker.value !== SEVERAL;
  const n = tickedIds(checks).length;
  for (const label of Array.from(checks.querySelectorAll('label'))) {
    label.classList.toggle('checked', Boolean(label.querySelector('input')?.checked));
  }
  replaceChildren(count, tickedNote(n));
}
