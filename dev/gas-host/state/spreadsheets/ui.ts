/**
 * What the script showed the user, recorded for tests and the playground: menus, sidebars, dialogs,
 * alerts and toasts; and the project's HTML files, which HtmlService reads.
 */
import { GasException, type DialogSpec, type HtmlSnapshot, type MenuRecord, type ServedOps, type UiOps } from '../../protocol/protocol';

export interface SidebarRecord extends HtmlSnapshot {
  executionId: number;
  user: string;
}

export class UiRecordings {
  readonly menus: MenuRecord[] = [];
  readonly sidebars: SidebarRecord[] = [];
  readonly dialogs: Array<DialogSpec & { executionId: number }> = [];
  readonly alerts: Array<{ executionId: number; title?: string; prompt: string }> = [];
  readonly toasts: Array<{ message: string; title?: string }> = [];

  /** `htmlFiles`: file name -> HTML, the project's HTML files. */
  constructor(private readonly htmlFiles: Record<string, string>) {}

  readonly ops: ServedOps<keyof UiOps> = {
    uiMenu: (_execution, menu) => {
      this.menus.push(menu);
    },
    uiSidebar: (execution, sidebar) => {
      this.sidebars.push({ executionId: execution.id, user: execution.user, ...sidebar });
    },
    uiDialog: (execution, dialog) => {
      this.dialogs.push({ executionId: execution.id, ...dialog });
    },
    uiAlert: (execution, title, prompt) => {
      this.alerts.push({ executionId: execution.id, title, prompt });
    },
    uiToast: (_execution, message, title) => {
      this.toasts.push({ message, title });
    },
    htmlFile: (_execution, name) => {
      const content = this.htmlFiles[name] ?? this.htmlFiles[name.replace(/\.html$/, '')] ?? this.htmlFiles[`${name}.html`];
      if (content === undefined) throw new GasException(`No HTML file named ${name} was found.`);
      return content;
    },
  };
}
