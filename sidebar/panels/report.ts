/**
 * The Report tab: the report builder. (Being built: see issue 5.)
 */
import { el } from '../dom';
import type { Panel } from '../panel';

export const panel: Panel = {
  id: 'report',
  title: 'Report',
  mount(container) {
    container.appendChild(el('p', {}, 'The report builder is being built.'));
  },
};
