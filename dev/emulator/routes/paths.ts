/**
 * Where the emulator's parts answer: the reporting API, the in-chat recommendations and their pixel,
 * the test controls, and the header that carries a session token. Named once, for the routes, the
 * request hooks and the server that prints them.
 */
export const BASE_PATH = '/engage/v2';
export const RECS_PATH = '/recs/v1/recommendations';
export const PIXEL_PATH = '/recs/v1/served';
export const ADMIN_PREFIX = '/__admin';
export const TOKEN_HEADER = 'SVC-TOKEN-V1';
/** Report pages are assembled as JSON bytes (model/reports/report-rows.ts), so their type is set by hand. */
export const JSON_TYPE = 'application/json; charset=utf-8';
