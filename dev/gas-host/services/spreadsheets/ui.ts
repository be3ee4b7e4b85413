/**
 * Ui and Menu: menus (add-on menus titled with the add-on's name), sidebars, dialogs and alerts,
 * recorded by the host for tests and the playground. Alerts answer OK at once.
 */
import type { MenuRecord } from '../../protocol/protocol';
import type { HtmlFacades } from './html';
import type { Facade, FacadeKit } from '../kit';

const BUTTON = { OK: 'OK', CANCEL: 'CANCEL', YES: 'YES', NO: 'NO', CLOSE: 'CLOSE' };

export function uiFacade(kit: FacadeKit, html: HtmlFacades): Facade {
  const { ops, guard } = kit;
  const menu = (title: string, addon: boolean) => {
    const record: MenuRecord = { title, addon, items: [] };
    const self: Facade = kit.api('Menu', {
      addItem: (caption: string, functionName: string) => (
        record.items.push({ caption: String(caption), functionName: String(functionName) }), self
      ),
      addSeparator: () => (record.items.push({ separator: true }), self),
      addSubMenu: (sub: { __record: MenuRecord }) => (record.items.push({ subMenu: sub.__record }), self),
      addToUi: () => {
        ops.uiMenu(record);
      },
      __record: record,
    });
    return self;
  };
  return kit.api('Ui', {
    createMenu: (caption: string) => (guard('menu', 'Ui.createMenu'), menu(String(caption), false)),
    createAddonMenu: () => (guard('menu', 'Ui.createAddonMenu'), menu(kit.settings.addOnName, true)),
    showSidebar: (output: unknown) => {
      guard('sidebar', 'Ui.showSidebar');
      ops.uiSidebar(html.snapshotOf(output));
    },
    showModalDialog: (output: unknown, title: string) => {
      guard('sidebar', 'Ui.showModalDialog');
      ops.uiDialog({ title: String(title), html: html.snapshotOf(output).html, modal: true });
    },
    showModelessDialog: (output: unknown, title: string) => {
      guard('sidebar', 'Ui.showModelessDialog');
      ops.uiDialog({ title: String(title), html: html.snapshotOf(output).html, modal: false });
    },
    alert: (a: string, b?: string) => {
      guard('ui', 'Ui.alert');
      if (b === undefined || typeof b !== 'string') ops.uiAlert(undefined, String(a));
      else ops.uiAlert(String(a), String(b));
      return BUTTON.OK;
    },
    Button: BUTTON,
    ButtonSet: { OK: 'OK', OK_CANCEL: 'OK_CANCEL', YES_NO: 'YES_NO', YES_NO_CANCEL: 'YES_NO_CANCEL' },
  });
}
