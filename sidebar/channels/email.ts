/**
 * The email channel in the sidebar: one checkbox, "By email to me", on unless the saved notices turn
 * it off.
 */
import { el } from '../dom';
import type { SidebarChannel } from './channel';

export const emailFields: SidebarChannel = {
  id: 'email',
  fields(id) {
    const email = el('input', { type: 'checkbox', id: id('notify-email'), checked: true });
    return {
      nodes: [el('label', { class: 'check', for: email.id }, email, 'By email to me')],
      read(notices) {
        notices.email = email.checked;
      },
      show(notices) {
        email.checked = notices?.email !== false;
      },
    };
  },
  named: (view) => (view.email ? 'email' : undefined),
};
