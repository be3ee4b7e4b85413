/**
 * Debian's chromium as the playground's pictures and the browser tests run it: its path (`CHROMIUM_PATH`
 * names another) and the flags of a headless run that reaches no network of its own.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
