/**
 * Where a saved report's rows go, in a build whose deployment loads into BigQuery (build-flags.ts):
 * the Schedule section's choice between this sheet and a BigQuery table, and the table's project,
 * dataset, name and location, each with a hint. The Schedules tab's edit form of a BigQuery report
 * shows the same four fields without the choice. The names are the server's to check (BigQuery's
 * naming rules, then the dataset's location and an existing table's columns, asked of BigQuery): its
 * refusal names each field at fault ("bigquery.tableId: …"), and the editor shows each such part under
 * its field, by its label (editor-problems.ts). In a build without BigQuery, destinationFields() makes nothing (and the build leaves its code
 * out): the sidebar then holds no BigQuery element or text.
 */
import { el, field } from '../dom';
import type { BigQueryTable } from './definition-form';

type Name = keyof BigQueryTable;

const FIELDS: ReadonlyArray<{ name: Name; id: string; label: string; placeholder: string; hint: string }> = [
  {
    name: 'projectId',
    id: 'project',
    label: 'Project',
    placeholder: 'my-project-123',
    hint: 'The Google Cloud project’s ID, not its name.',
  },
  { name: 'datasetId', id: 'dataset', label: 'Dataset', placeholder: 'engage_reports', hint: 'A dataset of the project, already there.' },
  {
    name: 'tableId',
    id: 'table',
    label: 'Table',
    placeholder: 'daily_revenue',
    hint: 'Made when missing, one partition a day: each refreshed day replaces its own.',
  },
  {
    name: 'location',
    id: 'location',
    label: 'Location',
    placeholder: 'US',
    hint: 'The dataset’s: US, EU or a region such as europe-west1.',
  },
];

export interface DestinationFields {
  node: HTMLElement;
  /** Whether the rows go to BigQuery (always, in the edit form of a BigQuery report). */
  chosen(): boolean;
  /** Shows a saved report's table, choosing BigQuery when it has one, the sheet when not. */
  set(table: BigQueryTable | undefined): void;
  /** The table as typed (the server trims and checks it). */
  value(): BigQueryTable;
}

/** The table's four inputs, each with its hint. */
function tableInputs(prefix: string): { box: HTMLElement; inputs: Map<Name, HTMLInputElement> } {
  const inputs = new Map<Name, HTMLInputElement>();
  const box = el(
    'div',
    { class: 'bigquery-fields', id: `${prefix}-bigquery` },
    ...FIELDS.map(({ name, id, label, placeholder, hint }) => {
      const input = el('input', { type: 'text', id: `${prefix}-bq-${id}`, maxlength: 1024, placeholder, autocomplete: 'off' });
      inputs.set(name, input);
      return field(label, input, hint);
    }),
  );
  return { box, inputs };
}

/** "This sheet" or "BigQuery table", and the rule of what a table takes. */
function destinationChoice(prefix: string): { radios: HTMLInputElement[]; segmented: HTMLElement; rule: HTMLElement } {
  const radios = (['sheet', 'bigquery'] as const).map((value) =>
    el('input', { type: 'radio', name: `${prefix}-destination`, value, id: `${prefix}-destination-${value}`, checked: value === 'sheet' }),
  );
  const segmented = el(
    'div',
    { class: 'segmented', role: 'radiogroup', 'aria-labelledby': `${prefix}-destination-label`, id: `${prefix}-destination` },
    ...radios.map((radio) => el('label', { for: radio.id }, radio, radio.value === 'sheet' ? 'This sheet' : 'BigQuery table')),
  );
  const rule = el(
    'div',
    { class: 'hint', id: `${prefix}-bigquery-rule` },
    'BigQuery takes one publisher’s general report by day, or its external-ID report by hour, loaded a whole UTC day at a time.',
  );
  return { radios, segmented, rule };
}

/**
 * The fields, with ids starting with `prefix` ("schedule" or "edit-<id>"), or undefined in a build
 * without BigQuery. `choice`: offer "This sheet" beside the table (the Schedule section), and tell
 * `changed` when the choice changes.
 */
export function destinationFields(prefix: string, options: { choice: boolean; changed?: () => void }): DestinationFields | undefined {
  // The build's flag (build-flags.ts), folded by esbuild: without BigQuery, the rest is not in the bundle.
  if (!__ENGAGE_BIGQUERY__) return undefined;
  const { box, inputs } = tableInputs(prefix);
  const { radios, segmented, rule } = destinationChoice(prefix);
  const chosen = () => !options.choice || radios[1]!.checked;
  const render = () => {
    for (const radio of radios) radio.parentElement!.classList.toggle('checked', radio.checked);
    box.hidden = !chosen();
    rule.hidden = !chosen();
  };
  for (const radio of radios)
    radio.addEventListener('change', () => {
      render();
      options.changed?.();
    });
  render();
  const node = options.choice
    ? el(
        'div',
        { class: 'destination-fields' },
        el('div', { class: 'field' }, el('span', { class: 'label', id: `${prefix}-destination-label` }, 'Destination'), segmented, rule),
        box,
      )
    : el('div', { class: 'destination-fields' }, el('h4', {}, 'BigQuery table'), box);
  return {
    node,
    chosen,
    set(table) {
      for (const { name } of FIELDS) inputs.get(name)!.value = table?.[name] ?? '';
      radios[table ? 1 : 0]!.checked = true;
      render();
    },
    value() {
      const table = {} as BigQueryTable;
      for (const { name } of FIELDS) table[name] = inputs.get(name)!.value;
      return table;
    },
  };
}
