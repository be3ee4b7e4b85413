/**
 * The host's two readings of Google's rules. Where Apps Script's documentation allows a stricter
 * reading than the kind one the host models by default, each such rule is a switch here, and the
 * add-on must work under both (shared/platform/apps-script.md, "Readings Google leaves open"). The
 * tests run the end-to-end suites once with every switch off, then again with every switch on
 * (`GAS_HOST_STRICT=1`, the second pass of `npm test`) each suite whose first run reached a place where
 * the two readings act differently (`ReadingWitness`, below).
 */

import { appendFileSync } from 'node:fs';

export interface StrictSettings {
  /**
   * A time-driven trigger's run has no document: `getActiveSpreadsheet()` and `getActive()` are null,
   * and so are `getDocumentProperties()`, `getDocumentCache()` and `getDocumentLock()` ("If this method
   * is called outside of the context of a containing document, null is returned"). Kind reading: the
   * run has the document whose trigger it is.
   */
  triggerWithoutDocument: boolean;
  /**
   * `setValue(s)` reads a string as Sheets reads typed text in the spreadsheet's locale: dates, times,
   * money, percentages and fractions become values (the Sheets API's USER_ENTERED). Kind reading:
   * only plain numbers, TRUE/FALSE and formulas are read.
   */
  textParsedAsTyped: boolean;
  /**
   * At most 30 executions of one user at once ("Simultaneous executions per user: 30"); the 31st is
   * refused with "There are too many scripts running simultaneously for this Google user account...",
   * and a recalculation starts every dirty formula at once, as Sheets does. Kind reading: executions
   * queue for the host's workers and none is refused.
   */
  executionsPerUserLimit: boolean;
  /**
   * Every top-level function whose name does not end in `_` can be typed as a formula ("The name of a
   * custom function can't end with an underscore" is the only rule). Kind reading: only functions whose
   * JSDoc says `@customfunction`.
   */
  anyFunctionAsFormula: boolean;
  /**
   * `TODAY()` as a custom function's argument is volatile like `NOW()` and `RAND()`, which "are not
   * allowed as arguments to a custom function": the cell shows "Loading..." indefinitely. Kind reading:
   * `TODAY()` is accepted (NOW() and RAND() never are).
   */
  volatileToday: boolean;
  /**
   * A user may have granted only some of the manifest's scopes: the host's `grantedScopes` option (and
   * `host.grantScopes`) decides what each user granted, and a service used without its scope throws
   * "You do not have permission to call X. Required permissions: <scope>". Granular consent reaches
   * Editor add-ons since August 2025 ("Some script executions can start without a user's consent to all
   * required scopes", developers.google.com/apps-script/reference/script/authorization-info), but the
   * scopes guide names only "some surfaces, such as running directly from the Apps Script IDE" for the
   * granular consent screen (developers.google.com/apps-script/concepts/scopes). Kind reading: every
   * user granted every scope of the manifest, whatever the option says.
   */
  partialConsent: boolean;
}

export const KIND_READING: StrictSettings = {
  triggerWithoutDocument: false,
  textParsedAsTyped: false,
  executionsPerUserLimit: false,
  anyFunctionAsFormula: false,
  volatileToday: false,
  partialConsent: false,
};

export const STRICT_READING: StrictSettings = {
  triggerWithoutDocument: true,
  textParsedAsTyped: true,
  executionsPerUserLimit: true,
  anyFunctionAsFormula: true,
  volatileToday: true,
  partialConsent: true,
};

/** The environment variable that makes every host without a `strict` option strict (the tests' second pass). */
export const STRICT_ENV = 'GAS_HOST_STRICT';

/**
 * `true` every switch on, `false` every switch off, an object the switches it names on top of the
 * default; left out, the default: every switch on when GAS_HOST_STRICT=1, else off.
 */
export function resolveStrict(option: boolean | Partial<StrictSettings> | undefined, env = process.env[STRICT_ENV]): StrictSettings {
  const fallback = env === '1' || env === 'true' ? STRICT_READING : KIND_READING;
  if (option === undefined) return { ...fallback };
  if (typeof option === 'boolean') return { ...(option ? STRICT_READING : KIND_READING) };
  return { ...fallback, ...option };
}

/** Which reading a host runs: 'strict' when every switch is on, 'kind' when none is, else the switches on. */
export function describeStrict(settings: StrictSettings): string {
  const on = (Object.keys(settings) as (keyof StrictSettings)[]).filter((k) => settings[k]);
  if (on.length === 0) return 'kind';
  if (on.length === Object.keys(settings).length) return 'strict';
  return on.join(', ');
}

/**
 * The environment variable naming the file in which a host notes each switch the environment decides
 * whose two readings would have acted differently (`ReadingWitness`): jest's first pass sets it per test
 * file (test/support/readings.ts), and the strict pass runs again only the files that noted one.
 */
export const READINGS_FILE_ENV = 'GAS_HOST_READINGS_FILE';

type SwitchName = keyof StrictSettings;

/**
 * Notes where the reading mattered. Each place a switch is read asks the other reading too, when it is
 * cheap to know, and calls `differs` when the two would act differently there. A run that never reached
 * such a place did under the kind reading exactly what it would have done under the strict one: its
 * first difference would have been at one of these places. Only switches the environment decides are
 * noted (a host whose option fixes a switch runs it the same in both passes).
 */
export class ReadingWitness {
  private readonly noted = new Set<SwitchName>();

  constructor(
    private readonly decided: ReadonlySet<SwitchName>,
    private readonly file: string | undefined,
  ) {}

  /** Whether a difference of `name` would be noted: otherwise the place need not work out the other reading. */
  listens(name: SwitchName): boolean {
    return this.file !== undefined && this.decided.has(name) && !this.noted.has(name);
  }

  /** The two readings of `name` act differently here. */
  differs(name: SwitchName): void {
    if (!this.listens(name)) return;
    this.noted.add(name);
    appendFileSync(this.file as string, `${name}\n`);
  }
}

/** The witness for a host given `option` (as `resolveStrict`'s): the switches the option leaves to the environment. */
export function readingWitness(option: boolean | Partial<StrictSettings> | undefined, env = process.env): ReadingWitness {
  const names = Object.keys(KIND_READING) as SwitchName[];
  const decided = option === undefined ? names : typeof option === 'boolean' ? [] : names.filter((name) => option[name] === undefined);
  return new ReadingWitness(new Set(decided), env[READINGS_FILE_ENV] || undefined);
}
