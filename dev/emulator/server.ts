/**
 * Puts an emulator app on a port. `startEmulator` serves one app with its own state; the instance
 * registry lets the admin API start further isolated instances (own clock, tokens, limits, logs and
 * faults) on free ports inside the same process, which is how every test file gets a private
 * emulator from the one process jest's global setup started.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { EmulatorAddresses, InstanceRegistry } from './routes/admin-routes';
import { createEmulatorApp } from './app';
import { ADMIN_PREFIX, BASE_PATH, RECS_PATH } from './routes/paths';
import type { SeedName } from './model/seed';
import { EmulatorState } from './model/state';

export const DEFAULT_HOST = '127.0.0.1';

export interface RunningEmulator extends EmulatorAddresses {
  state: EmulatorState;
  app: FastifyInstance;
  close(): Promise<void>;
}

export function addressesFor(host: string, port: number): EmulatorAddresses {
  const origin = `http://${host}:${port}`;
  return { port, baseUrl: `${origin}${BASE_PATH}`, recsUrl: `${origin}${RECS_PATH}`, adminUrl: `${origin}${ADMIN_PREFIX}` };
}

export class EmulatorInstances implements InstanceRegistry {
  private readonly running = new Map<number, RunningEmulator>();
  /** Instances serve the seed of the emulator that starts them: the tests' instances get the tests' fixtures. */
  constructor(
    private readonly host: string = DEFAULT_HOST,
    private readonly seed: SeedName = 'demo',
  ) {}

  async create(): Promise<EmulatorAddresses> {
    const instance = await startEmulator({ port: 0, host: this.host, registry: this, seed: this.seed });
    this.running.set(instance.port, instance);
    const { port, baseUrl, recsUrl, adminUrl } = instance;
    return { port, baseUrl, recsUrl, adminUrl };
  }

  async close(port: number): Promise<boolean> {
    const instance = this.running.get(port);
    if (!instance) return false;
    this.running.delete(port);
    await instance.close();
    return true;
  }

  list(): EmulatorAddresses[] {
    return [...this.running.values()].map(({ port, baseUrl, recsUrl, adminUrl }) => ({ port, baseUrl, recsUrl, adminUrl }));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.running.keys()].map((port) => this.close(port)));
  }
}

export interface StartOptions {
  port?: number;
  host?: string;
  registry?: InstanceRegistry;
  state?: EmulatorState;
  /** The fixtures of a new state (seed.ts); 'demo' unless told. */
  seed?: SeedName;
}

export async function startEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? DEFAULT_HOST;
  const state = options.state ?? new EmulatorState(options.seed);
  const app = createEmulatorApp(state, { registry: options.registry });
  await app.listen({ port: options.port ?? 0, host });
  const port = (app.server.address() as AddressInfo).port;
  return {
    ...addressesFor(host, port),
    state,
    app,
    close: async () => {
      // Keep-alive sockets from test clients would otherwise hold close() open.
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
