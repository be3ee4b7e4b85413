/**
 * Refresh waves: how Refresh all and the hourly run make every ENGAGE_* formula that references a
 * refresh cell compute again without more formulas at once than Apps Script runs for one user (30).
 *
 * Formulas are grouped by the refresh cell they reference: `EngageRefresh`, `EngageRefresh2`, ...,
 * each a named cell serving at most a wave's worth of formulas (25). A wave changes the cells of
 * groups that together hold at most a wave's worth, and the next wave starts only once every formula
 * of the one before has counted its end (or a wave's time has passed). All waves of one refresh write
 * the same time, so identical formulas in different groups share one result. A group holding more (formulas
 * typed or copied by hand, all referencing `EngageRefresh`) keeps a wave's worth; the others move to
 * new groups by a rewrite of their refresh argument, which itself makes them compute, so each move is
 * a wave too, and the moves come first: the group's own cell changes only once it serves a wave's
 * worth. Groups go oldest first, so a refresh that runs out of time leaves the freshest for later.
 *
 * Plain planning, names and texts: refresh-driver.ts runs the waves, wave-watch.ts keeps the count of
 * ends, and src/gas/adapters/sheets/refresh-cell.ts finds the formulas and changes the cells.
 */
import { formatCount } from '../util/text';

/** The first refresh cell's name, which formulas written before the groups reference. */
export const REFRESH_GROUP_BASE_NAME = 'EngageRefresh';

/** Group 1 is `EngageRefresh`, group n `EngageRefresh<n>`. */
export function refreshGroupName(groupNumber: number): string {
  return groupNumber <= 1 ? REFRESH_GROUP_BASE_NAME : `${REFRESH_GROUP_BASE_NAME}${groupNumber}`;
}

/** The group number a named range's name stands for, or undefined for any other name. */
export function refreshGroupNumber(name: string): number | undefined {
  const match = /^EngageRefresh([1-9]\d{0,3})?$/.exec(name);
  if (!match) return undefined;
  return match[1] === undefined ? 1 : Number(match[1]) >= 2 ? Number(match[1]) : undefined;
}

/**
 * A regular expression, for a TextFinder over formula text, of an ENGAGE_* formula that takes the
 * group's cell as an argument (`..., EngageRefresh2)`), in any case as Sheets reads names; `;` stands
 * for `,` where a locale writes it so. Only what every regular-expression dialect shares.
 */
export function refreshReferencePattern(groupName: string): string {
  return `ENGAGE_\\w+\\s*\\((?:[\\s\\S]*[,;])?\\s*${groupName}\\s*[,;)]`;
}

/** The formula with its refresh argument `from` changed to `to` (the rest as it was). */
export function withRefreshReference(formula: string, from: string, to: string): string {
  return formula.replace(new RegExp(`([(,;]\\s*)${from}(?=\\s*[,;)])`, 'gi'), `$1${to}`);
}

export interface RefreshGroupCount {
  name: string;
  /** ENGAGE_* formulas referencing it now. */
  formulas: number;
  /** When its cell was last changed (0: never, or not a time). */
  stampMs: number;
}

export type RefreshWave =
  /** Change the cells of these groups. */
  | { kind: 'touch'; groups: string[]; formulas: number }
  /** Make group `to` and move to it the formulas of `from` found from `skip` on (in the finder's order), `formulas` of them. */
  | { kind: 'move'; from: string; to: string; skip: number; formulas: number };

/**
 * The waves that refresh every group's formulas, at most `waveFormulas` formulas each: first the moves
 * out of overfull groups (changing such a group's cell would start all its formulas at once), then the
 * groups, oldest first.
 */
export function planRefreshWaves(groups: readonly RefreshGroupCount[], waveFormulas: number): RefreshWave[] {
  const numberOf = (g: RefreshGroupCount) => refreshGroupNumber(g.name) ?? 0;
  const ordered = [...groups].sort((a, b) => a.stampMs - b.stampMs || numberOf(a) - numberOf(b));
  let nextGroup = Math.max(1, ...groups.map(numberOf)) + 1;
  const touches: Array<Extract<RefreshWave, { kind: 'touch' }>> = [];
  const moves: RefreshWave[] = [];
  for (const group of ordered) {
    const staying = Math.min(group.formulas, waveFormulas);
    let wave = touches[touches.length - 1];
    if (!wave || wave.formulas + staying > waveFormulas) touches.push((wave = { kind: 'touch', groups: [], formulas: 0 }));
    wave.groups.push(group.name);
    wave.formulas += staying;
    for (let skip = waveFormulas; skip < group.formulas; skip += waveFormulas) {
      moves.push({
        kind: 'move',
        from: group.name,
        to: refreshGroupName(nextGroup++),
        skip,
        formulas: Math.min(waveFormulas, group.formulas - skip),
      });
    }
  }
  return [...moves, ...touches];
}

/** The group a new formula (or `formulas` at once, a dashboard's) should reference: the fullest that has room, else a new one. */
export function refreshGroupWithRoom(
  groups: ReadonlyArray<{ name: string; formulas: number }>,
  formulas: number,
  waveFormulas: number,
): string {
  const roomy = groups.filter((g) => g.formulas + formulas <= waveFormulas).sort((a, b) => b.formulas - a.formulas);
  if (roomy.length > 0) return roomy[0]!.name;
  return refreshGroupName(Math.max(1, ...groups.map((g) => refreshGroupNumber(g.name) ?? 0)) + 1);
}

/**
 * A refresh's stamp, the time written into the cells of all its waves: a whole second (a cell keeps
 * it exactly, whatever Sheets rounds), now or later, and after every stamp in the cells, so every
 * group's cell changes. One stamp for all the waves of a refresh: identical formulas in different
 * groups share one result (the refresh value is part of a result's identity) and fetch it once.
 */
export function nextRefreshStampMs(nowMs: number, lastStampMs: number): number {
  return Math.max(Math.ceil(nowMs / 1000) * 1000, Math.floor(lastStampMs / 1000) * 1000 + 1000);
}

/** The document cache key counting the ends of the formulas that received this time as their refresh value. */
export function refreshWaveKey(stampMs: number): string {
  return `engage.wave.${Math.round(stampMs / 1000)}`;
}

/** How many formulas of a refresh have ended so far, in all its waves, and how many of those failed. */
export interface WaveCount {
  ended: number;
  failed: number;
}

export function parseWaveCount(text: string | null): WaveCount | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<WaveCount>;
    const whole = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined);
    const ended = whole(value.ended);
    const failed = whole(value.failed);
    return ended === undefined || failed === undefined ? undefined : { ended, failed };
  } catch {
    return undefined;
  }
}

/** What a refresh set out to do and did. */
export interface RefreshOutcome {
  /** ENGAGE_* formulas referencing a refresh cell. */
  formulas: number;
  waves: number;
  /** Formulas of the waves started. */
  refreshedFormulas: number;
  startedWaves: number;
  /** Another execution was refreshing this spreadsheet's formulas: nothing was changed. */
  busy: boolean;
}

/**
 * What Refresh all says, and all it does, when the sign-in its formulas would use is missing: changing
 * the refresh cells would only turn every formula into an error, so nothing is changed.
 */
export const REFRESH_SIGNED_OUT_TEXT =
  'Nobody is signed in to Engage, so Refresh all changed nothing: open the sidebar (Extensions › Engage for Sheets › Open sidebar), sign in, then Refresh all again.';

/** The toast that says what Refresh all does, before it starts. */
export function refreshPlanText(formulas: number, waves: number, waveFormulas: number): string {
  if (formulas === 0) return 'No Engage formula uses the refresh cell yet: formulas made with Insert formula or Create dashboard do.';
  const subject = `${formatCount(formulas)} Engage ${formulas === 1 ? 'formula' : 'formulas'}`;
  if (waves <= 1) return `Refreshing ${subject}: ${formulas === 1 ? 'it shows' : 'they show'} fresh data in a few seconds.`;
  return (
    `Refreshing ${subject} in ${waves} waves of at most ${waveFormulas}, one after another: ` +
    'Apps Script runs at most 30 scripts of a user at once.'
  );
}

/** What Refresh all did, when it ends. */
export function refreshOutcomeText(outcome: RefreshOutcome): string {
  if (outcome.busy) return 'Refresh all is already running in this spreadsheet: its formulas show fresh data as it goes.';
  if (outcome.formulas === 0) return refreshPlanText(0, 0, 0);
  const waves = (n: number) => `${n} ${n === 1 ? 'wave' : 'waves'}`;
  if (outcome.startedWaves < outcome.waves) {
    const left = outcome.formulas - outcome.refreshedFormulas;
    return (
      `Refreshed ${formatCount(outcome.refreshedFormulas)} of ${formatCount(outcome.formulas)} Engage formulas in ` +
      `${waves(outcome.startedWaves)} of ${outcome.waves} before time ran out: Refresh all again, or the hourly run, refreshes the other ${formatCount(left)}.`
    );
  }
  const last = outcome.waves > 1 ? '; the last wave is computing now' : '';
  return `Refreshed ${formatCount(outcome.formulas)} Engage ${outcome.formulas === 1 ? 'formula' : 'formulas'} in ${waves(outcome.waves)}${last}.`;
}
