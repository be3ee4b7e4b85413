/** Jest global teardown: stops the emulator process and the browser that global-setup.ts started. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__ENGAGE_CHROMIUM__?.close();
  const child = globalThis.__ENGAGE_EMULATOR__;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
