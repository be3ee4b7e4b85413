/**
 * The add-on's version (package.json), which the build writes into the bundle in place of
 * __ENGAGE_VERSION__ (scripts/build.ts): ENGAGE_VERSION() shows it, and support can ask for it.
 */
declare const __ENGAGE_VERSION__: string;

export const ADDON_VERSION: string = __ENGAGE_VERSION__;
