/**
 * The add-on menu and the sidebar opener. onOpen may run in AuthMode.NONE, where only menus are
 * allowed, so it touches nothing but the UI builder (no properties, no document, no fetch).
 */

/**
 * Adds the Engage menu when a spreadsheet opens. Works in every auth mode, NONE included.
 * @param {GoogleAppsScript.Events.SheetsOnOpen} e The open event.
 */
export function onOpen(e?: GoogleAppsScript.Events.SheetsOnOpen): void {
  void e;
  SpreadsheetApp.getUi()
    .createAddonMenu()
    .addItem('Open sidebar', 'showSidebar')
    .addToUi();
}

/**
 * Runs when the add-on is installed: builds the menu as onOpen does.
 * @param {GoogleAppsScript.Events.AddonOnInstall} e The install event.
 */
export function onInstall(e?: GoogleAppsScript.Events.AddonOnInstall): void {
  onOpen(e as unknown as GoogleAppsScript.Events.SheetsOnOpen);
}

/**
 * Opens the Engage sidebar.
 */
export function showSidebar(): void {
  const html = HtmlService.createHtmlOutputFromFile('sidebar').setTitle('Engage for Sheets');
  SpreadsheetApp.getUi().showSidebar(html);
}
