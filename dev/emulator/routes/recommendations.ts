/**
 * The in-chat recommendations endpoint (an API key, a widget of that key, a JSON body of keywords and
 * IAB categories), its CORS preflight, the impression pixel it hands out for tracked answers, and the
 * demo seed's thumbnails, so that the playground's preview shows pictures.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../shared/api-error';
import { OPERATIONS } from '../model/operations';
import { chooseDocuments, THUMBNAIL_PATH, thumbnailSvg } from '../model/recommendations';
import { API_KEYS } from '../model/seed';
import type { EmulatorState } from '../model/state';
import { queryOf } from './authentication';
import { headerText } from './hooks';
import { PIXEL_PATH, RECS_PATH } from './paths';

const operation = OPERATIONS.recommendations;

/** A request's last value of a query parameter, as text. */
type QueryText = (name: string) => string | undefined;

export function registerRecommendationRoutes(app: FastifyInstance, state: EmulatorState): void {
  app.post(RECS_PATH, async (request, reply) => reply.send(recommend(state, request)));

  app.options(RECS_PATH, async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'POST, OPTIONS')
      .header('access-control-allow-headers', 'Content-Type')
      .header('access-control-max-age', '600')
      .send(),
  );

  app.get(PIXEL_PATH, async (request, reply) => {
    recordImpression(state, request);
    return reply.code(204).send();
  });

  app.get<{ Params: { file: string } }>(`${THUMBNAIL_PATH}:file`, async (request, reply) => {
    const svg = state.seed === 'demo' ? thumbnailSvg(request.params.file.replace(/\.svg$/, '')) : undefined;
    if (!svg) return reply.code(404).type('text/plain; charset=utf-8').send('No such thumbnail');
    return reply.type('image/svg+xml').header('cache-control', 'max-age=3600').send(svg);
  });
}

function recommend(state: EmulatorState, request: FastifyRequest): Record<string, unknown> {
  const query = queryOf(request);
  const text: QueryText = (name) => {
    const value = query[name];
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    return last === undefined ? undefined : String(last);
  };
  const widgetJSId = checkParameters(text);
  const fields = bodyFields(request);
  const testMode = text('testMode') === 'true';
  const origin = `${request.protocol}://${request.headers.host ?? request.hostname}`;
  const choice = chooseDocuments({
    keywords: (fields.keywords as string[] | undefined) ?? [],
    iabCategories: (fields.iabCategories as string[] | undefined) ?? [],
    widgetJSId,
    contentUrl: text('contentUrl')!,
    // The demo seed serves its thumbnails itself; the tests' point at a host that never resolves.
    ...(state.seed === 'demo' ? { thumbnailBase: `${origin}${THUMBNAIL_PATH}` } : {}),
  });
  const response: Record<string, unknown> = { documents: choice.documents };
  if (choice.tracked && choice.documents.length > 0) {
    const servedId = state.nextServedId();
    state.served.set(servedId, {
      servedId,
      widgetJSId,
      testMode,
      documentCount: choice.documents.length,
      time: new Date(request.arrivalAtMs).toISOString(),
    });
    const params = new URLSearchParams({ servedId, widgetJSId });
    if (testMode) params.set('testMode', 'true');
    response.tracking = { reportServed: `${origin}${PIXEL_PATH}?${params.toString()}` };
  }
  return response;
}

/** The key, the required parameters and the bid floor; the widget asked for. */
function checkParameters(text: QueryText): string {
  const key = text('key');
  if (!key) throw new ApiError(401, operation, 'Missing API key (query parameter key)');
  const apiKey = API_KEYS.find((k) => k.key === key);
  if (!apiKey) throw new ApiError(401, operation, 'Invalid API key');
  for (const name of ['contentUrl', 'widgetJSId', 'cors']) {
    if (!text(name)?.trim()) throw new ApiError(400, operation, `Missing required parameter ${name}`);
  }
  if (text('cors') !== 'true') throw new ApiError(400, operation, 'Parameter cors must be the literal true');
  const widgetJSId = text('widgetJSId')!;
  if (!apiKey.widgetIds.includes(widgetJSId)) {
    throw new ApiError(400, operation, `Parameter widgetJSId: ${widgetJSId} is not a widget of this API key`);
  }
  const bidFloor = text('bf');
  if (bidFloor !== undefined && !(Number.isFinite(Number(bidFloor)) && Number(bidFloor) >= 0 && bidFloor.trim() !== '')) {
    throw new ApiError(400, operation, `Parameter bf must be a non-negative number, got "${bidFloor}"`);
  }
  return widgetJSId;
}

/** The JSON body's fields, each checked to be an array of strings when present. */
function bodyFields(request: FastifyRequest): Record<string, unknown> {
  const contentType = headerText(request, 'content-type') ?? '';
  if (!/^application\/json\s*(;.*)?$/i.test(contentType)) {
    throw new ApiError(400, operation, `Content-Type must be application/json, got "${contentType || 'none'}"`);
  }
  let body: unknown;
  try {
    body = JSON.parse(typeof request.body === 'string' ? request.body : '');
  } catch {
    throw new ApiError(400, operation, 'Request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, operation, 'Request body must be a JSON object {keywords?, iabCategories?}');
  }
  const fields = body as Record<string, unknown>;
  for (const name of ['keywords', 'iabCategories']) {
    const value = fields[name];
    if (value !== undefined && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
      throw new ApiError(400, operation, `Body field ${name} must be an array of strings`);
    }
  }
  return fields;
}

function recordImpression(state: EmulatorState, request: FastifyRequest): void {
  const query = queryOf(request);
  const text = (name: string) => (query[name] === undefined ? null : String(query[name]));
  const servedId = text('servedId');
  if (!servedId) throw new ApiError(400, OPERATIONS.pixel, 'Missing required parameter servedId');
  const pos = text('pos');
  state.impressions.push({
    servedId,
    known: state.served.has(servedId),
    widgetJSId: text('widgetJSId'),
    testMode: text('testMode') === 'true',
    pos,
    positions: pos
      ? pos
          .split('-')
          .map(Number)
          .filter((n) => Number.isInteger(n) && n > 0)
      : [],
    time: new Date(request.arrivalAtMs).toISOString(),
    userAgent: headerText(request, 'user-agent') ?? null,
  });
}
