/**
 * In-chat recommendations (spec "In-chat recommendations"): validating a request, sending it, reading
 * the answer, and shaping the documents for a sheet (ENGAGE_RECOMMENDATIONS) or for the sidebar's
 * preview. The endpoint is authorised by the API key as a query parameter, so the request address is
 * a secret: no message, error or cache identity made here ever carries the address with its query or
 * the key. Sending documents never fires the impression pixel; only a client that displays them does
 * (impression-pixel.ts).
 */
import * as z from '../util/zod';
import {
  ApiError,
  ConnectionError,
  EngageError,
  RecommendationsApiError,
  ResponseFormatError,
  ValidationError,
  type ApiErrorDetails,
  type ValidationProblem,
} from '../errors';
import { optionalBoolean, optionalText, stringList } from '../sheets/formula-args';
import {
  FETCH_URL_MAX_CHARS,
  type Clock,
  type HttpRequest,
  type HttpResponse,
  type HttpTransport,
  type RandomSource,
  type Sleeper,
  type Cell,
} from '../ports';
import { RequestSender, type FetchCounter } from '../api/transport/request-sender';
import { DEFAULT_RETRY_POLICY } from '../api/transport/retry-policy';
import { TRACE_ID_HEADER } from '../spec';
import { toNumberIfNumeric } from '../api/responses/values';
import { controlCharacterIndex, describeControlCharacter, quoted } from '../util/text';

/** The add-on's own bounds (the spec gives none): enough for any conversation, small enough for one request. */
export const RECOMMENDATIONS_MAX_KEYWORDS = 100;
export const RECOMMENDATIONS_MAX_KEYWORD_CHARS = 200;
export const RECOMMENDATIONS_MAX_CATEGORIES = 50;
export const CONTENT_URL_MAX_CHARS = 1000;
/** Widget identifiers are short codes such as APP_12 (field notes); the settings allow the same. */
export const WIDGET_ID_MAX_CHARS = 110;
export { FETCH_URL_MAX_CHARS };
/** Ads change quickly: a formula's documents are reused for 5 minutes, then asked for again. */
export const RECOMMENDATIONS_RESULT_TTL_SECONDS = 300;
/** A recommendations request is cheap and has no documented rate limit: two more tries on 429, 504 or no answer. */
export const RECOMMENDATIONS_MAX_ATTEMPTS = 3;
/** Used in messages instead of the request address, which carries the key. */
export const RECOMMENDATIONS_OPERATION = 'the recommendations request';

/** Columns of ENGAGE_RECOMMENDATIONS, in the order a chat client reads a document. */
export const RECOMMENDATION_COLUMNS = ['pos', 'content', 'source_display_name', 'target_domain', 'url', 'thumbnail_url', 'cta'] as const;
export const NO_RECOMMENDATIONS_TEXT = 'No recommendations returned';

/** Arguments as a formula or the sidebar gives them: text lists or ranges, text, TRUE/FALSE. */
export interface RawRecommendationsInput {
  keywords?: unknown;
  iabCategories?: unknown;
  contentUrl?: unknown;
  widgetJSId?: unknown;
  testMode?: unknown;
}

export interface RecommendationsInput {
  keywords: string[];
  iabCategories: string[];
  contentUrl: string;
  widgetJSId: string;
  testMode: boolean;
}

/** Where to send: both from the user's settings. */
export interface RecommendationsConfig {
  recommendationsUrl: string;
  apiKey: string;
}

export interface RecommendationsDeps {
  transport: HttpTransport;
  clock: Clock;
  sleeper: Sleeper;
  random?: RandomSource;
  /** Counts every attempt against the user's daily URL Fetch quota. */
  fetchCounter?: FetchCounter;
}

const IAB_CATEGORY = /^(IAB\d+(-\d+)*|\d+)$/i;
const WIDGET_ID = /^[\w.-]+$/;
const DOMAIN_OR_URL = /^(https?:\/\/[^\s/?#]+|[a-z0-9-]+(\.[a-z0-9-]+)+)(?:[/?#]\S*)?$/i;

/** Collects every problem, so one message names each bad argument. */
function collect<T>(problems: ValidationProblem[], read: () => T): T | undefined {
  try {
    return read();
  } catch (e) {
    if (e instanceof ValidationError) {
      problems.push(...e.problems);
      return undefined;
    }
    throw e;
  }
}

function problem(argument: string, rule: string): ValidationProblem {
  return { argument, message: `${argument}: ${rule}` };
}

/**
 * Validates the arguments; nothing is sent. The widget comes from the argument, else from the
 * widget ID in the settings. Test mode is on unless the argument says FALSE.
 */
export function recommendationsInput(raw: RawRecommendationsInput, defaultWidgetId?: string): RecommendationsInput {
  const problems: ValidationProblem[] = [];
  const keywords = collect(problems, () => stringList(raw.keywords, 'keywords')) ?? [];
  if (keywords.length > RECOMMENDATIONS_MAX_KEYWORDS)
    problems.push(problem('keywords', `${keywords.length} keywords are more than the ${RECOMMENDATIONS_MAX_KEYWORDS} allowed`));
  const long = keywords.find((k) => k.length > RECOMMENDATIONS_MAX_KEYWORD_CHARS);
  if (long !== undefined)
    problems.push(problem('keywords', `'${long.slice(0, 40)}...' is longer than ${RECOMMENDATIONS_MAX_KEYWORD_CHARS} characters`));
  const garbled = keywords.find((k) => controlCharacterIndex(k) >= 0);
  if (garbled !== undefined) problems.push(problem('keywords', `${quoted(garbled)} contains ${describeControlCharacter(garbled)}`));

  const categories = (collect(problems, () => stringList(raw.iabCategories, 'iabCategories')) ?? []).map((c) => c.toUpperCase());
  if (categories.length > RECOMMENDATIONS_MAX_CATEGORIES)
    problems.push(problem('iabCategories', `${categories.length} categories are more than the ${RECOMMENDATIONS_MAX_CATEGORIES} allowed`));
  const badCategory = categories.find((c) => !IAB_CATEGORY.test(c));
  if (badCategory !== undefined)
    problems.push(problem('iabCategories', `'${badCategory.slice(0, 40)}' is not an IAB category code such as IAB17 or IAB17-3`));

  const contentUrl = collect(problems, () => optionalText(raw.contentUrl, 'contentUrl'));
  if (contentUrl === undefined) {
    if (!problems.some((p) => p.argument === 'contentUrl')) {
      problems.push(
        problem(
          'contentUrl',
          'is required (the address or domain of the page the conversation is about, such as https://news.example/story)',
        ),
      );
    }
  } else if (controlCharacterIndex(contentUrl) >= 0) {
    problems.push(
      problem('contentUrl', `${quoted(contentUrl)} contains ${describeControlCharacter(contentUrl)}: give the address as text`),
    );
  } else if (contentUrl.length > CONTENT_URL_MAX_CHARS) {
    problems.push(problem('contentUrl', `is longer than ${CONTENT_URL_MAX_CHARS} characters`));
  } else if (!DOMAIN_OR_URL.test(contentUrl)) {
    problems.push(problem('contentUrl', `'${contentUrl.slice(0, 80)}' must be an http(s) address or a domain such as news.example`));
  }

  const givenWidget = collect(problems, () => optionalText(raw.widgetJSId, 'widgetJSId'));
  const widgetJSId = givenWidget ?? defaultWidgetId;
  if (widgetJSId === undefined || widgetJSId === '') {
    if (!problems.some((p) => p.argument === 'widgetJSId')) {
      problems.push(
        problem(
          'widgetJSId',
          'is required (a widget ID such as APP_12): give it, or set a default widget ID in the Engage sidebar under Settings',
        ),
      );
    }
  } else if (widgetJSId.length > WIDGET_ID_MAX_CHARS || !WIDGET_ID.test(widgetJSId)) {
    problems.push(
      problem(
        'widgetJSId',
        `'${widgetJSId.slice(0, 40)}' must be a widget ID such as APP_12 (letters, digits, "_", "-" and ".", at most ${WIDGET_ID_MAX_CHARS} characters)`,
      ),
    );
  }

  const testMode = collect(problems, () => optionalBoolean(raw.testMode, 'testMode', true));
  if (problems.length > 0) throw new ValidationError(problems);
  return { keywords, iabCategories: categories, contentUrl: contentUrl!, widgetJSId: widgetJSId!, testMode: testMode! };
}

/** The POST of the spec: key, contentUrl, widgetJSId, cors=true and (when on) testMode=true; a JSON body. */
export function buildRecommendationsRequest(config: RecommendationsConfig, input: RecommendationsInput): HttpRequest {
  const params: Array<[string, string]> = [
    ['key', config.apiKey],
    ['contentUrl', input.contentUrl],
    ['widgetJSId', input.widgetJSId],
    ['cors', 'true'],
  ];
  if (input.testMode) params.push(['testMode', 'true']);
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  const url = `${config.recommendationsUrl}${config.recommendationsUrl.includes('?') ? '&' : '?'}${query}`;
  if (url.length > FETCH_URL_MAX_CHARS) {
    throw ValidationError.single(
      'contentUrl',
      `makes the request address longer than the ${FETCH_URL_MAX_CHARS} characters Apps Script can send: use a shorter address or the domain alone`,
    );
  }
  return {
    url,
    method: 'post',
    // URL Fetch sends contentType as the Content-Type header.
    contentType: 'application/json',
    payload: JSON.stringify({ keywords: input.keywords, iabCategories: input.iabCategories }),
  };
}

// ---- The answer ----

const documentSchema = z.looseObject({
  url: z.string(),
  thumbnail_url: z.string(),
  content: z.string(),
  source_display_name: z.string(),
  target_domain: z.string(),
  pos: z.pipe(
    z.transform((v) => toNumberIfNumeric(v)),
    z.int().check(z.minimum(0)),
  ),
  cta: z.nullish(z.string()),
});

const responseSchema = z.looseObject({
  documents: z.array(documentSchema),
  tracking: z.nullish(z.looseObject({ reportServed: z.nullish(z.string()) })),
});

export interface AdDocument {
  url: string;
  thumbnail_url: string;
  content: string;
  source_display_name: string;
  target_domain: string;
  pos: number;
  cta?: string;
}

export interface RecommendationsResult {
  documents: AdDocument[];
  /** tracking.reportServed as given; absent when the answer had none. */
  reportServed?: string;
  traceId?: string;
}

/** Reads a 2xx answer; unknown fields are ignored, a body of another shape is refused with what is wrong. */
export function parseRecommendations(body: string, traceId?: string): RecommendationsResult {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ResponseFormatError('the body is not JSON', RECOMMENDATIONS_OPERATION, traceId);
  }
  const parsed = responseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ResponseFormatError(`${issue.path.join('.') || 'body'}: ${issue.message}`, RECOMMENDATIONS_OPERATION, traceId);
  }
  const documents = parsed.data.documents.map((d) => {
    const doc: AdDocument = {
      url: d.url,
      thumbnail_url: d.thumbnail_url,
      content: d.content,
      source_display_name: d.source_display_name,
      target_domain: d.target_domain,
      pos: d.pos as number,
    };
    if (typeof d.cta === 'string') doc.cta = d.cta;
    return doc;
  });
  const result: RecommendationsResult = { documents };
  const reportServed = parsed.data.tracking?.reportServed;
  if (typeof reportServed === 'string' && reportServed !== '') result.reportServed = reportServed;
  if (traceId) result.traceId = traceId;
  return result;
}

// ---- Sending ----

/** Removes the key (plain or URL-encoded) and the request's query from a text that may quote them. */
export function redactSecrets(text: string, config: RecommendationsConfig, requestUrl?: string): string {
  let out = text;
  if (requestUrl) out = out.split(requestUrl).join(config.recommendationsUrl);
  for (const secret of [config.apiKey, encodeURIComponent(config.apiKey)]) {
    if (secret.length > 0) out = out.split(secret).join('[API key]');
  }
  return out;
}

function redactedError(error: unknown, config: RecommendationsConfig, url: string): unknown {
  const clean = (t: string | undefined) => (t === undefined ? undefined : redactSecrets(t, config, url));
  if (error instanceof ApiError) {
    const details: ApiErrorDetails = { status: error.status, operation: RECOMMENDATIONS_OPERATION };
    const moreInfo = clean(error.moreInfo);
    const errorMessage = clean(error.errorMessage);
    const body = clean(error.body);
    if (moreInfo !== undefined) details.moreInfo = moreInfo;
    if (errorMessage !== undefined) details.errorMessage = errorMessage;
    if (body !== undefined) details.body = body;
    if (error.traceId !== undefined) details.traceId = error.traceId;
    return new RecommendationsApiError(details);
  }
  if (error instanceof ConnectionError) return new ConnectionError(clean(error.reason)!, RECOMMENDATIONS_OPERATION);
  if (error instanceof EngageError) return error;
  // Anything else may quote the address: keep only its redacted message.
  return new Error(clean(error instanceof Error ? error.message : String(error)));
}

/** Sends one recommendations request (retrying 429, 504 and lost connections) and reads the answer. */
export function fetchRecommendations(
  deps: RecommendationsDeps,
  config: RecommendationsConfig,
  input: RecommendationsInput,
  options: { deadlineAtMs: number },
): RecommendationsResult {
  const request = buildRecommendationsRequest(config, input);
  const sender = new RequestSender({
    transport: deps.transport,
    clock: deps.clock,
    sleeper: deps.sleeper,
    random: deps.random ?? Math.random,
    policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: RECOMMENDATIONS_MAX_ATTEMPTS },
    ...(deps.fetchCounter ? { counter: deps.fetchCounter } : {}),
  });
  let response: HttpResponse;
  try {
    response = sender.send(request, { operation: RECOMMENDATIONS_OPERATION, deadlineAtMs: options.deadlineAtMs, retry: true });
  } catch (e) {
    throw redactedError(e, config, request.url);
  }
  if (response.status < 200 || response.status > 299) {
    // A redirect that was not followed: nothing to read.
    throw new RecommendationsApiError({
      status: response.status,
      operation: RECOMMENDATIONS_OPERATION,
      ...(response.headers[TRACE_ID_HEADER] ? { traceId: response.headers[TRACE_ID_HEADER] } : {}),
    });
  }
  return parseRecommendations(response.body, response.headers[TRACE_ID_HEADER]);
}

// ---- Shapes for the sheet and the sidebar ----

/**
 * One row per document under a header, text as the service sent it: a custom function's strings are
 * values, never formulas (anything written with setValues goes through sheet-output's asTypedInput).
 */
export function recommendationsTable(result: RecommendationsResult): Cell[][] {
  if (result.documents.length === 0) return [[NO_RECOMMENDATIONS_TEXT]];
  return [
    [...RECOMMENDATION_COLUMNS],
    ...result.documents.map((d) => [d.pos, d.content, d.source_display_name, d.target_domain, d.url, d.thumbnail_url, d.cta ?? '']),
  ];
}
