/** Jest global teardown: stops the emulator process that global-setup.ts started. */
export default async function globalTeardown(): Promise<void> {
  const child = globalThis.__ENGAGE_EMULATOR__;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
