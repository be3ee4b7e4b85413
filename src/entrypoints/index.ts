/**
 * The public surface of the bundle: every function exported here becomes a top-level function in
 * dist/Code.js (the build generates a stub carrying its JSDoc). Nothing else is visible to Apps Script.
 */
export { onOpen, onInstall, showSidebar, refreshAll, signOutFromMenu } from './menu';
export {
  ENGAGE_REPORT,
  ENGAGE_EXTERNALID_REPORT,
  ENGAGE_REALTIME_REPORT,
  ENGAGE_PUBLISHERS,
  ENGAGE_WIDGETS,
  ENGAGE_NATIVEAPPS,
  ENGAGE_COUNTRIES,
  ENGAGE_TIMEZONES,
  ENGAGE_VERSION,
} from './custom-functions';
export { ENGAGE_COMPARE } from './compare';
export { ENGAGE_EXPLAIN } from './explain';
export { createDashboard, createDashboardFromMenu } from './dashboard';
export { signIn, signInAllowance, signInWithToken, signOut, saveSettings, getSidebarState } from './sidebar-api';
export { getFormulaAccess, setFormulaAccess } from './formula-access';
export { ENGAGE_RECOMMENDATIONS, previewRecommendations } from './recommendations';
export {
  listPublishers,
  getSheetContext,
  runReportToSheet,
  getRunProgress,
  insertFormula,
  explainChange,
  runExplanationToSheet,
  addChart,
} from './sidebar-reports';
export {
  saveSchedule,
  listSchedules,
  updateSchedule,
  runScheduleNow,
  pauseSchedule,
  deleteSchedule,
  removeSpreadsheetSchedules,
  openReportInSheets,
  onScheduledRefresh,
} from './schedules';
export { checkInstallation, onInstallationCheckTrigger } from './installation-check';
