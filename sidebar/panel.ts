/**
 * The contract between the sidebar shell (main.ts) and its panels. A panel is a module that exports
 * `panel: Panel`; the shell shows one tab per panel, mounts each panel once into its own container
 * the first time its tab opens, and calls `shown` each time the tab is opened again.
 */
import type { Moments } from './moments';
import type { ServerClient } from './server';
import type { BuilderRequest, SavedReportInput, SidebarState, WrittenBlock } from '../src/core';

/**
 * A report to reopen in the Report tab's builder: one a Run to sheet wrote (its block's record keeps
 * the report) or a saved report (from its block in the sheet, or from the Schedules tab's Edit).
 */
export type ReportEdit =
  | { source: 'run'; range: string; block: WrittenBlock; report: BuilderRequest }
  | {
      source: 'schedule';
      scheduleId: string;
      name: string;
      mine: boolean;
      definition: SavedReportInput;
      range?: string;
      block?: WrittenBlock;
    };

export interface PanelContext {
  /** The typed server client (google.script.run as Promises). */
  server: ServerClient;
  /** The latest sign-in and settings state (no secrets), or undefined before the first load. */
  state(): SidebarState | undefined;
  /** Asks the server for the state again and tells every listener. */
  refreshState(): Promise<SidebarState>;
  /** Stores a state returned by a server call (signIn, saveSettings...) and tells every listener. */
  setState(state: SidebarState): void;
  /** Called with every new state; panels re-render what depends on sign-in or settings. */
  onStateChange(listener: (state: SidebarState) => void): void;
  /** Switches to another tab by panel id. */
  showPanel(id: string): void;
  /** Opens the Report tab with this report's settings in the builder, to change it and run or save it again. */
  editReport(edit: ReportEdit): void;
  /** Messages shown until what they report is superseded (moments.ts): panels say what happened, messages go. */
  moments: Moments;
}

export interface Panel {
  /** Stable id, used in element ids and by showPanel. */
  id: string;
  /** The tab's label. */
  title: string;
  /** Builds the panel's content into `container` (called once). */
  mount(container: HTMLElement, ctx: PanelContext): void;
  /** Called when the tab is opened again after the first time. */
  shown?(): void;
  /** The Report tab: takes a report to reopen in its builder (after `mount`). */
  edit?(edit: ReportEdit): void;
}
