/**
 * The public surface of the bundle: every function exported here becomes a top-level function in
 * dist/Code.js (the build generates a stub carrying its JSDoc). Nothing else is visible to Apps Script.
 */
export { onOpen, onInstall, showSidebar } from './menu';
