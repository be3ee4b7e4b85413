/**
 * `npm start`: starts the playground (the emulator with its BigQuery stand-in, the add-on built for them
 * into build/playground/ from playground.deploy.json, the local Apps Script host, and the page with a
 * sheet, the real sidebar, the clock and the notices) and prints its address. Runs until Ctrl-C.
 */
import { webhookUrlOf, PLAYGROUND_DATASET } from './controls';
import { startPlayground } from './playground';

async function main(): Promise<void> {
  const started = Date.now();
  const port = Number(process.env.PORT ?? 8080);
  // As in Google, a trigger that falls due while the playground runs runs unasked.
  const playground = await startPlayground({ port: Number.isInteger(port) ? port : 8080, runDueTriggers: true });
  process.stdout.write(
    [
      '',
      `  Engage for Sheets playground: ${playground.url}  (open it in a browser)`,
      '',
      `  Emulator (Engage API):  ${playground.emulator.baseUrl}`,
      `  BigQuery stand-in:      dataset ${PLAYGROUND_DATASET.projectId}.${PLAYGROUND_DATASET.datasetId} (${PLAYGROUND_DATASET.location})`,
      `  Webhook receiver:       ${webhookUrlOf(playground.emulator)}`,
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
