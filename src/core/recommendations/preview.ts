/**
 * The in-chat recommendations the sidebar's preview shows: only what a sidebar may show and load.
 * Links are http(s) (they open in a new tab); thumbnails and the impression pixel's address must be
 * ones a sidebar may load: https, since Apps Script's HTML service serves it over https and loads external resources
 * only over https, or, in a build for local servers, plain http to this machine (the emulator).
 */
import { isHttpUrl, isLoadableUrl } from './impression-pixel';
import type { RecommendationsInput, RecommendationsResult } from './recommendations';

/** A document as the sidebar may show it: the link is http(s), the thumbnail one the sidebar may load (https) or absent. */
export interface PreviewDocument {
  pos: number;
  content: string;
  source_display_name: string;
  target_domain: string;
  url: string;
  thumbnail_url?: string;
  cta?: string;
}

export interface RecommendationsPreview {
  /** In the order the service gave them: the order to display them in. */
  documents: PreviewDocument[];
  /** Documents left out because their link was not an http(s) address. */
  omitted: number;
  /** The pixel's base address (https only); absent when the answer had none or another: then no pixel is fired. */
  reportServed?: string;
  testMode: boolean;
  widgetJSId: string;
  traceId?: string;
}

/**
 * What the sidebar is sent: only documents with an http(s) link (a link opens in a new tab), and the
 * thumbnails and pixel address a sidebar may load: https, or with `localServers` (a build for the
 * playground and the tests) plain http to this machine.
 */
export function recommendationsPreview(
  result: RecommendationsResult,
  input: RecommendationsInput,
  loading: { localServers: boolean } = { localServers: false },
): RecommendationsPreview {
  const documents: PreviewDocument[] = [];
  for (const d of result.documents) {
    if (!isHttpUrl(d.url)) continue;
    const doc: PreviewDocument = {
      pos: d.pos,
      content: d.content,
      source_display_name: d.source_display_name,
      target_domain: d.target_domain,
      url: d.url,
    };
    if (isLoadableUrl(d.thumbnail_url, loading)) doc.thumbnail_url = d.thumbnail_url;
    if (d.cta) doc.cta = d.cta;
    documents.push(doc);
  }
  const preview: RecommendationsPreview = {
    documents,
    omitted: result.documents.length - documents.length,
    testMode: input.testMode,
    widgetJSId: input.widgetJSId,
  };
  if (isLoadableUrl(result.reportServed, loading)) preview.reportServed = result.reportServed;
  if (result.traceId) preview.traceId = result.traceId;
  return preview;
}
