/**
 * The emulator's request handling as a Fastify app built from an EmulatorState, separate from any
 * listener (as stripe-mock does). This file only assembles it, one module per area: the request hooks
 * and the error envelope (routes/hooks.ts, routes/errors.ts), the reporting API under /engage/v2
 * (routes/reporting.ts), the in-chat recommendations and their pixel (routes/recommendations.ts), the
 * webhook receiver, the BigQuery stand-in (dev/bigquery), and the /__admin test controls.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerBigQueryAdminRoutes } from '../bigquery/admin-routes';
import {
  BIGQUERY_PREFIX,
  BIGQUERY_UPLOAD_PREFIX,
  registerBigQueryHooks,
  registerBigQueryRoutes,
  registerBigQueryUploadRoute,
} from '../bigquery/routes';
import { BigQueryState } from '../bigquery/model/state';
import type { EmulatorState } from './model/state';
import { registerAdminRoutes, type InstanceRegistry } from './routes/admin-routes';
import { registerErrorHandlers } from './routes/errors';
import { registerServiceHooks } from './routes/hooks';
import { ADMIN_PREFIX, BASE_PATH } from './routes/paths';
import { registerRecommendationRoutes } from './routes/recommendations';
import { registerReportingRoutes } from './routes/reporting';
import { registerWebhookAdminRoutes, registerWebhookRoutes } from './routes/webhooks';

export interface EmulatorAppOptions {
  /** Lets /__admin/instances start further isolated instances; omitted in instances themselves is fine. */
  registry?: InstanceRegistry;
  /** The BigQuery stand-in's state (dev/bigquery); a fresh one on the emulator's clock when omitted. */
  bigquery?: BigQueryState;
}

function isBigQueryPath(url: string): boolean {
  return url.startsWith(`${BIGQUERY_PREFIX}/`) || url.startsWith(`${BIGQUERY_UPLOAD_PREFIX}/`);
}

export function createEmulatorApp(state: EmulatorState, options: EmulatorAppOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: false,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: 1_048_576,
    // An idle connection stays open for an hour, not Fastify's 72 s. Its clients (a test file, the local
    // host) can block their own thread for minutes in one synchronous run of the add-on. A socket the
    // server closed meanwhile would then fail their next request ("write EPIPE", "other side closed").
    // A client still closes its idle sockets itself as soon as its thread runs again.
    keepAliveTimeout: 3_600_000,
  });

  // Bodies arrive as text; the handlers parse them, so a wrong content type or bad JSON becomes the
  // service's 400 envelope instead of Fastify's own 415/400 shapes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  registerServiceHooks(app, state, isBigQueryPath);
  registerErrorHandlers(app);
  app.register(async (api) => registerReportingRoutes(api, state), { prefix: BASE_PATH });
  registerRecommendationRoutes(app, state);
  registerWebhookRoutes(app, state);

  // The BigQuery stand-in shares the emulator's port, clock and instances (dev/bigquery/README.md).
  const bigquery = options.bigquery ?? new BigQueryState(() => state.now());
  mountBigQuery(app, bigquery);

  app.register(
    async (admin) => {
      await registerAdminRoutes(admin, state, options.registry);
      registerWebhookAdminRoutes(admin, state);
      await admin.register(async (scope) => registerBigQueryAdminRoutes(scope, bigquery), { prefix: '/bigquery' });
    },
    { prefix: ADMIN_PREFIX },
  );

  return app;
}

function mountBigQuery(app: FastifyInstance, bigquery: BigQueryState): void {
  app.register(
    async (upload) => {
      registerBigQueryHooks(upload, bigquery);
      registerBigQueryUploadRoute(upload, bigquery);
    },
    { prefix: BIGQUERY_UPLOAD_PREFIX },
  );
  app.register(
    async (api) => {
      registerBigQueryHooks(api, bigquery);
      registerBigQueryRoutes(api, bigquery);
    },
    { prefix: BIGQUERY_PREFIX },
  );
}
