/**
 * The saved-report editor's map from the server's arguments to its fields (sidebar/editor/editor-problems.ts)
 * and the reading of a refusal into its parts (sidebar/widgets/field-problems.ts): every argument the
 * core names when it refuses a definition, in either shape, is known by a label, and each part of a
 * refusal of several is read whole, quoting rules that hold "; " and ": " of their own.
 */
import { ValidationError } from '../../../../src/core';
import { checkSavedReport } from '../../../../src/core/schedules/saved/saved-reports';
import { labelOf, namedField, namesThePlace } from '../../../../sidebar/editor/editor-problems';
import { labelled, refusalParts } from '../../../../sidebar/widgets/refusal-parts';
import { hourlyDailyReport } from '../../../support/saved-report';

/** The core's refusal of a definition, as the sidebar receives it. */
function refusal(definition: Record<string, unknown>): string {
  try {
    checkSavedReport(definition);
  } catch (error) {
    if (error instanceof ValidationError) return error.userMessage();
    throw error;
  }
  throw new Error('the definition was accepted');
}

describe('the editor’s fields of the server’s arguments', () => {
  it.each([
    ['name', { name: '' }, 'Name'],
    ['schedule.hour', { schedule: { every: 'day', hour: 25 } }, 'Refresh'],
    ['notices.webhook', { notices: { webhook: 12 } }, 'Webhook'],
    ['notices.when', { notices: { when: 'sometimes' } }, 'Tell me'],
    ['target.cell', { destination: { kind: 'sheet', target: { sheetName: 'Daily', cell: 'not a cell' } } }, 'Cell'],
    [
      'maxStoredRows',
      { destination: { kind: 'sheet', target: { sheetName: 'D', cell: 'A1' }, writeMode: 'append', maxStoredRows: 0 } },
      'Keep at most (rows)',
    ],
    [
      'closedThrough',
      {
        breakdowns: ['day', 'country'],
        compareWith: 'previous',
        destination: { kind: 'sheet', target: { sheetName: 'D', cell: 'A1' }, closedThrough: '2026-10' },
      },
      'Months closed through',
    ],
    ['alerts', { alerts: [{ kind: 'below', metric: 'nothing', value: 1 }] }, 'Alerts'],
  ])('names %s by a field of the editor, by its label', (argument, change, label) => {
    const message = refusal(hourlyDailyReport('Daily', change));
    const [first] = refusalParts(message);
    expect(first!.argument?.startsWith(argument.split('.')[0]!)).toBe(true);
    expect(namedField(first!.argument!)?.id).toBeDefined();
    expect(labelOf(first!.argument!)).toBe(label);
  });

  it('words the report’s own arguments by the builder’s labels, with no field of the editor', () => {
    expect([labelOf('compareWith'), namedField('compareWith')?.id]).toEqual(['Compare with', undefined]);
    expect([labelOf('period.days'), namedField('period.days')?.id]).toEqual(['Period', undefined]);
    expect(labelOf('somethingElse')).toBeUndefined();
  });

  it('knows which refusals ask for another sheet or cell', () => {
    expect(['writeMode', 'incremental', 'target.cell', 'target'].map(namesThePlace)).toEqual([true, true, true, true]);
    expect(['notices.webhook', 'maxStoredRows'].map(namesThePlace)).toEqual([false, false]);
  });
});

describe('a refusal’s parts', () => {
  it('reads each argument’s part whole, even a rule holding "; " and ": " of its own', () => {
    const webhook = "notices.webhook: ('http://hooks.slack.com/…') must be an https address; ask whoever deployed it, or choose email";
    const message = `${webhook}; writeMode: cannot turn 'append' into 'upsert' at Daily!A1: the next run would write over the 7 rows`;
    expect(refusalParts(message)).toEqual([
      {
        argument: 'notices.webhook',
        rule: "('http://hooks.slack.com/…') must be an https address; ask whoever deployed it, or choose email",
      },
      { argument: 'writeMode', rule: "cannot turn 'append' into 'upsert' at Daily!A1: the next run would write over the 7 rows" },
    ]);
  });

  it('keeps a message naming no argument whole, and an empty one as none', () => {
    expect(refusalParts("Publisher 'Daily Planet' (653e): the service is busy; try again")).toEqual([
      { argument: undefined, rule: "Publisher 'Daily Planet' (653e): the service is busy; try again" },
    ]);
    expect(refusalParts('')).toEqual([]);
  });

  it('words a part by the field’s label, leaving out the value the field shows above it', () => {
    expect(labelled('Webhook', "('http://hooks.slack.com/…') must be an https address")).toBe('Webhook: must be an https address');
    expect(labelled('Months closed through', '2026-12 has not ended yet')).toBe('Months closed through: 2026-12 has not ended yet');
  });
});
