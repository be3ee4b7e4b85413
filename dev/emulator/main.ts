/**
 * `npm run emulator`: starts the Engage API emulator on 127.0.0.1 (port 8787, `--port N`, 0 for a
 * free port), prints its addresses and the demo credentials for people, and one
 * `EMULATOR_READY {json}` line for programs (jest's global setup waits for it). Stops cleanly, with
 * every instance it started, on SIGTERM or SIGINT.
 */
import {
  ANALYST_USER,
  BIG_PUBLISHER_ID,
  DEMO_API_KEY,
  DEMO_USER,
  HOSTILE_PUBLISHER_ID,
  SEED_NAMES,
  type SeedName,
  usersOf,
} from './model/seed';
import { DEFAULT_HOST, EmulatorInstances, startEmulator } from './server';

export const DEFAULT_PORT = 8787;

function parsePort(argv: string[]): number {
  const index = argv.indexOf('--port');
  const inline = argv.find((a) => a.startsWith('--port='));
  const text = inline ? inline.slice('--port='.length) : index >= 0 ? argv[index + 1] : process.env.ENGAGE_EMULATOR_PORT;
  if (text === undefined) return DEFAULT_PORT;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a whole number from 0 to 65535, got "${text}"`);
  }
  return port;
}

/** `--seed tests` (or ENGAGE_EMULATOR_SEED=tests): the tests' fixtures; the clean demo otherwise (seed.ts). */
function parseSeed(argv: string[]): SeedName {
  const index = argv.indexOf('--seed');
  const inline = argv.find((a) => a.startsWith('--seed='));
  const text = inline ? inline.slice('--seed='.length) : index >= 0 ? argv[index + 1] : process.env.ENGAGE_EMULATOR_SEED;
  if (text === undefined || text === '') return 'demo';
  if (!SEED_NAMES.includes(text as SeedName)) throw new Error(`--seed must be ${SEED_NAMES.join(' or ')}, got "${text}"`);
  return text as SeedName;
}

async function main(): Promise<void> {
  const port = parsePort(process.argv.slice(2));
  const seed = parseSeed(process.argv.slice(2));
  const registry = new EmulatorInstances(DEFAULT_HOST, seed);
  const emulator = await startEmulator({ port, host: DEFAULT_HOST, registry, seed });
  const demo = usersOf(seed)[0]!;
  const lines = [
    'Engage API emulator is running.',
    `  Reporting base URL:  ${emulator.baseUrl}`,
    `  Recommendations URL: ${emulator.recsUrl}`,
    `  Admin API:           ${emulator.adminUrl}`,
    `  BigQuery stand-in:   ${new URL(emulator.baseUrl).origin} in place of https://bigquery.googleapis.com (dev/bigquery/README.md)`,
    `  Demo login:          ${DEMO_USER.email} / ${DEMO_USER.password} (${demo.publisherIds.length} publishers; ${BIG_PUBLISHER_ID} is the big one${
      demo.publisherIds.includes(HOSTILE_PUBLISHER_ID) ? `, ${HOSTILE_PUBLISHER_ID} has hostile section names` : ''
    })`,
    `  Fixtures:            ${seed === 'tests' ? "the tests' (hostile names, thumbnails on a host that never resolves)" : 'the clean demo (--seed tests for the tests’ fixtures)'}`,
    `  Analyst login:       ${ANALYST_USER.email} / ${ANALYST_USER.password} (1 publisher)`,
    `  Recommendations key: ${DEMO_API_KEY.key} (widgets ${DEMO_API_KEY.widgetIds.join(', ')})`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stdout.write(
    `EMULATOR_READY ${JSON.stringify({ baseUrl: emulator.baseUrl, recsUrl: emulator.recsUrl, adminUrl: emulator.adminUrl })}\n`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`Received ${signal}; stopping the emulator.\n`);
    await registry.closeAll();
    await emulator.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`The emulator could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
