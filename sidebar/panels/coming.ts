/**
 * A placeholder tab for a feature that is not in this version yet. It says so plainly; it never
 * pretends to work.
 */
import { el } from '../dom';
import type { Panel } from '../panel';

export function comingPanel(id: string, title: string, text: string): Panel {
  return {
    id,
    title,
    mount(container) {
      container.appendChild(el('div', { class: 'empty-state' }, el('h2', {}, title), el('p', {}, text)));
    },
  };
}
