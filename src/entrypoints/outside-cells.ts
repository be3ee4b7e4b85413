/**
 * The one guard of every top-level function that is not an ENGAGE_* formula. Google's only rule for
 * custom functions is "The name of a custom function can't end with an underscore"
 * (developers.google.com/apps-script/guides/sheets/functions), so any editor can type `=LISTPUBLISHERS()`
 * or `=PREVIEWRECOMMENDATIONS("kw")` into a cell, and it runs with the spreadsheet owner's user
 * properties: the owner's sign-in and API key. Such a call is refused before anything is read, sent or
 * written, with one sentence that Sheets shows under #ERROR!.
 *
 * How a function knows it runs in a cell, on the platform:
 * - A formula has no UI. A sidebar's google.script.run call, a menu item and onOpen (in every AuthMode,
 *   NONE included, where it builds the menu) have the editor's UI; in a custom function
 *   `SpreadsheetApp.getUi()` throws "Cannot call SpreadsheetApp.getUi() from this context." (the words
 *   users report; Google's Ui reference: "A script can only interact with the UI for the current
 *   instance of an open editor"). One call, no request and no storage read: the cheapest check there
 *   is for calls the sidebar makes all the time.
 * - A time-driven trigger's run has no UI either, so its handler checks its argument instead: a trigger
 *   passes an event object (with `triggerUid`), while a formula passes only cell values, never an
 *   object (Google's AuthMode reference: "custom functions do not include an event parameter").
 */

/** Where each kind of function runs, for the sentence. */
const RUNS_FROM = {
  sidebar: 'from the Engage sidebar',
  menu: 'from the Engage menu (Extensions > Engage for Sheets)',
  open: 'when the spreadsheet opens, to add the Engage menu',
  trigger: "from the hourly trigger of Engage's scheduled refreshes",
} as const;

export type RunsFrom = keyof typeof RUNS_FROM;

/** The one sentence a cell shows for a function that is not a formula. */
export function notInACell(origin: RunsFrom): string {
  return `This Engage function runs ${RUNS_FROM[origin]} and cannot be used in a cell; in a cell, use the ENGAGE_ functions, such as ENGAGE_REPORT.`;
}

/**
 * The editor's UI, which only a sidebar call, a menu item or onOpen has; in a cell (a custom
 * function) there is none, and the call is refused with the sentence before anything else happens.
 */
export function outsideCells(origin: Exclude<RunsFrom, 'trigger'>): GoogleAppsScript.Base.Ui {
  let ui: GoogleAppsScript.Base.Ui;
  try {
    ui = SpreadsheetApp.getUi();
  } catch {
    throw new Error(notInACell(origin));
  }
  return ui;
}

/** A trigger handler's guard: its event is an object, which no cell can pass. */
export function triggeredOutsideCells(event: unknown): void {
  const isEvent = event !== null && typeof event === 'object' && !Array.isArray(event) && !(event instanceof Date);
  if (!isEvent) throw new Error(notInACell('trigger'));
}
