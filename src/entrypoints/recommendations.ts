/**
 * In-chat recommendations for Apps Script: the ENGAGE_RECOMMENDATIONS custom function (QA of which
 * ads come back for which keywords, in the sheet) and the sidebar's preview. Both use the API key and
 * widget ID from the user's settings (the spreadsheet owner's in a formula). Neither fires the
 * impression pixel: only the sidebar does, in the browser, after it has displayed the documents.
 */
import { type Cell, PREVIEW_TIME_BUDGET_MS, type RecommendationsPreview, FETCH_PERMISSION, requirePermissions, singleValue } from '../core';
import { scriptConsent } from '../gas/adapters/consent';
import { createAddon } from '../gas/wiring/addon-services';
import { runFormula } from './custom-functions';
import { withUserMessage } from './user-errors';

/**
 * The in-chat ads Engage recommends for keywords and IAB categories: one row per document, as a chat
 * client would receive them. Test mode is on unless testMode is FALSE. No impression is reported.
 *
 * @param {string|range} keywords Keywords of the conversation, as "running,shoes" or a range of cells. May be empty.
 * @param {string|range} iabCategories IAB category codes, as "IAB17,IAB7" or a range. May be empty.
 * @param {string} contentUrl The address or domain of the page the conversation is about, for example "https://news.example/story".
 * @param {string} widgetJSId The widget ID, for example "APP_12". Empty: the widget ID from the sidebar's settings.
 * @param {boolean} testMode Optional. FALSE asks for live ads; default TRUE (test mode).
 * @param {any} refresh Optional. Any cell; when its value changes the ads are fetched again.
 * @return A header row (pos, content, source_display_name, target_domain, url, thumbnail_url, cta) and one row per ad.
 * @customfunction
 */
export function ENGAGE_RECOMMENDATIONS(
  keywords: unknown,
  iabCategories: unknown,
  contentUrl: unknown,
  widgetJSId: unknown,
  testMode?: unknown,
  refresh?: unknown,
): Cell[][] {
  return runFormula(
    (deadlineAtMs) =>
      createAddon({ inCustomFunction: true }).formulaRecommendations(
        { keywords, iabCategories, contentUrl, widgetJSId, testMode },
        { deadlineAtMs, refresh: singleValue(refresh, 'refresh') ?? null },
      ),
    refresh,
  );
}

/**
 * The sidebar's recommendations preview: fetches documents for the given keywords and categories and
 * returns those with http(s) links, with the impression pixel's base address. It reports no
 * impression itself: the sidebar does, once, after displaying the documents.
 * @param {Object} request {keywords, iabCategories, contentUrl, widgetJSId, testMode}: lists as text or arrays; testMode defaults to true.
 * @return {Object} {documents, omitted, reportServed, testMode, widgetJSId, traceId}.
 */
export function previewRecommendations(request: unknown): RecommendationsPreview {
  return withUserMessage(() => {
    const r = (request && typeof request === 'object' && !Array.isArray(request) ? request : {}) as Record<string, unknown>;
    requirePermissions(scriptConsent, [FETCH_PERMISSION], 'preview recommendations');
    return createAddon().previewRecommendations(
      { keywords: r.keywords, iabCategories: r.iabCategories, contentUrl: r.contentUrl, widgetJSId: r.widgetJSId, testMode: r.testMode },
      { deadlineAtMs: Date.now() + PREVIEW_TIME_BUDGET_MS },
    );
  });
}
