/**
 * The Engage operations by the names the service puts in an error's `moreInfo`: the handlers name
 * theirs, and routes/errors.ts finds one by path for an error raised outside a handler.
 */
export const OPERATIONS = {
  login: 'login',
  publishers: 'getPublishers',
  widgets: 'getWidgets',
  nativeApps: 'getNativeApps',
  countries: 'getCountries',
  timezones: 'getTimezones',
  mainReport: 'getMainReport',
  externalIdReport: 'getExternalIdReport',
  realtimeReport: 'getRealtimeExternalIdReport',
  recommendations: 'getRecommendations',
  pixel: 'reportServed',
  unknown: 'unknownOperation',
} as const;
