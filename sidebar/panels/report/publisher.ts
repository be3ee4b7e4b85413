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
}

/** `changed` is called after the user picks a publisher and after each load. */
export function publisherPicker(server: ServerClient, changed: () => void): PublisherPicker {
  const picker = el('select', { id: 'report-publisher', required: true });
  const status = el('div', { class: 'hint', id: 'report-publisher-status' });

  async function load(): Promise<void> {
    replaceChildren(status, 'Loading publishers…');
    try {
      const publishers = await server.listPublishers();
      const previous = picker.value;
      replaceChildren(picker, ...publishers.map((p) => el('option', { value: p.id, selected: p.id === previous }, `${p.name}`)));
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
  };
}
