/**
 * `npm start`: builds the add-on for the playground (build/playground/, from playground.deploy.json,
 * which accepts the emulator's http://127.0.0.1 addresses), then starts the playground (emulator, local Apps Script host and
 * the page with a sheet and the real sidebar) and prints its address. Runs until Ctrl-C.
 */
import { build } from '../../scripts/build';
import { PLAYGROUND_BUILD_DIR, PLAYGROUND_DEPLOY_CONFIG, startPlayground } from './playground';

async function main(): Promise<void> {
  const started = Date.now();
  await build({ configFile: PLAYGROUND_DEPLOY_CONFIG, outDir: PLAYGROUND_BUILD_DIR });
  const port = Number(process.env.PORT ?? 8080);
  const playground = await startPlayground({ port: Number.isInteger(port) ? port : 8080 });
  process.stdout.write(
    [
      '',
      `  Engage for Sheets playground: ${playground.url}`,
      '',
      `  Emulator (Engage API):  ${playground.emulator.baseUrl}`,
      `  Demo sign-in:           demo@engage.example / demo-password (already in the form)`,
      `  Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Press Ctrl-C to stop.`,
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    playground.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
