/**
 * The Report tab: the report builder. The user picks a publisher, a report type, a period, breakdowns,
 * metrics, filters, sort, currency and the target; then runs it to the sheet, inserts the equivalent
 * formula, adds a chart, or saves it to a refresh schedule, which the Schedules tab then lists. Below
 * the builder, a tagging helper writes the snippets that put external IDs on pages.
 *
 * The rules come from the core (spec.ts, report-fields.ts, report-metrics.ts, filters.ts,
 * date-presets.ts, formula-text.ts, schedule-draft.ts), bundled into the sidebar, so the sidebar
 * refuses what the server would refuse and shows the exact formula the server will insert. The
 * server validates again anyway. builder.ts composes the parts of this folder; part.ts is their
 * contract.
 */
import { replaceChildren } from '../../dom';
import type { Panel } from '../../panel';
import { ReportBuilder } from './builder';
import { taggingHelper } from './tagging';

let builder: ReportBuilder | undefined;
export const panel: Panel = {
  id: 'report',
  title: 'Report',
  mount(container, ctx) {
    builder = new ReportBuilder(ctx);
    replaceChildren(container, ...builder.nodes, taggingHelper());
  },
  shown() {
    builder?.shown();
  },
  edit(edit) {
    builder?.edit(edit);
  },
};
