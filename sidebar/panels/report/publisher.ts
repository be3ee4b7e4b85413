/**
 * The publisher picker: the publishers the user's Engage account may report on, from the API, with
 * a reload button and a line that says when the list is loading, empty or failed.
 */
import { el, notice, replaceChildren } from '../../dom';
import { failureText, type ServerClient } from '../../server';

export interface PublisherPicker {
  readonly node: HTMLElement;
  /** Lists the publishers from the API again, keeping the chosen one where it is still listed. */
  load(): Promise<void>;
  /** Whether a list has arrived (an empty or failed one has not). */
  loaded(): boolean;
  /** The chosen publisher's ID, or "" when none is. */
  id(): string;
  /** The chosen publisher's name, as listed. */
  name(): string | undefined;
  /** Chooses a publisher by ID (a reopened report's), now or when the list arrives; one not listed is shown by its ID. */
  choose(id: string): void;
}

/** `changed` is called after the user picks a publisher and after each load. */
export function publisherPicker(server: ServerClient, changed: () => void): PublisherPicker {
  const picker = el('select', { id: 'report-publisher', required: true });
  const status = el('div', { class: 'hint', id: 'report-publisher-status' });
  /** A publisher a reopened report asked for before the list arrived. */
  let wanted: string | undefined;

  function choose(id: string): void {
    if (!Array.from(picker.options).some((o) => o.value === id)) picker.appendChild(el('option', { value: id }, id));
    picker.value = id;
  }

  async function load(): Promise<void> {
    replaceChildren(status, 'Loading publishers…');
    try {
      const publishers = await server.listPublishers();
      const previous = wanted ?? picker.value;
      replaceChildren(picker, ...publishers.map((p) => el('option', { value: p.id, selected: p.id === previous }, `${p.name}`)));
      if (wanted) choose(wanted);
      wanted = undefined;
      replaceChildren(status, publishers.length ? '' : 'Your Engage user has no publishers: ask your account manager.');
    } catch (error) {
      replaceChildren(status, notice('error', failureText(error)));
    }
    changed();
  }

  picker.addEventListener('change', changed);
  const reload = el(
    'button',
    { type: 'button', class: 'icon', title: 'Reload publishers', 'aria-label': 'Reload publishers', onclick: () => void load() },
    '⟳',
  );
  return {
    node: el('div', { class: 'field' }, el('label', { for: picker.id }, 'Publisher'), el('div', { class: 'row' }, picker, reload), status),
    load,
    loaded: () => picker.options.length > 0,
    id: () => picker.value,
    name: () => picker.selectedOptions[0]?.textContent ?? undefined,
    choose(id) {
      if (picker.options.length === 0) wanted = id;
      choose(id);
    },
  };
}
