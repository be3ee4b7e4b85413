/**
 * What every service facade of one execution is built with: the typed host operations, the checks
 * of the execution's AuthMode, deadline and custom-function read-only rule, and the crossing between
 * the host's realm and the script's. Values entering the script are rebuilt as its own Arrays, Dates
 * and Errors, so `instanceof` holds in the bundle. `api` wraps a facade's methods so that every call
 * is counted, checked against the deadline, and fails with an error of the script's realm, named as
 * Apps Script names its service errors.
 */
import vm from 'node:vm';
import type { HostClock } from '../../shared/clock';
import type { ExecutionRequest, RuntimeSettings } from '../protocol/execution';
import type { AuthModeName, HostOps } from '../protocol/protocol';

export const EXCEEDED_MESSAGE = 'Exceeded maximum execution time';

export type Capability =
  | 'menu'
  | 'ui'
  | 'sidebar'
  | 'docRead'
  | 'docWrite'
  /** Opening other documents by ID or URL: only with full authorization (custom functions "cannot open other spreadsheets"). */
  | 'docOpen'
  | 'props'
  | 'cache'
  | 'lock'
  | 'fetch'
  | 'utilities'
  | 'html'
  | 'session'
  | 'mail'
  | 'triggers';

const ALLOWED: Record<AuthModeName, ReadonlySet<Capability>> = {
  NONE: new Set(['menu', 'utilities', 'html']),
  LIMITED: new Set(['menu', 'docRead', 'docWrite', 'props', 'cache', 'lock', 'utilities', 'html', 'session']),
  CUSTOM_FUNCTION: new Set(['docRead', 'props', 'cache', 'lock', 'fetch', 'utilities', 'html']),
  FULL: new Set([
    'menu',
    'ui',
    'sidebar',
    'docRead',
    'docWrite',
    'docOpen',
    'props',
    'cache',
    'lock',
    'fetch',
    'utilities',
    'html',
    'session',
    'mail',
    'triggers',
  ]),
};

/** Thrown inside the host when the execution is out of time; the script sees `Exceeded maximum execution time`. */
export class ExceededTime extends Error {}

export const isDate = (v: unknown): v is Date => Object.prototype.toString.call(v) === '[object Date]';

/** Deep copy of script data into this (host) realm. */
export function fromRealm(value: unknown, seen = new Set<unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (isDate(value)) return new Date(value.getTime());
  // Only a cycle (an object inside itself) is cut; the same row array used twice in a grid is two rows, as in Apps Script.
  if (seen.has(value)) return undefined;
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => fromRealm(v, seen));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (typeof v !== 'function') out[k] = fromRealm(v, seen);
    return out;
  } finally {
    seen.delete(value);
  }
}

/** A script's Byte[] (signed or not, from any realm) or a string (as UTF-8) as bytes. */
export function bytesToBuffer(value: unknown): Buffer {
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (Array.isArray(value)) {
    // An indexed loop: iterating a multi-megabyte array of another realm any other way is ten times slower.
    const bytes = Buffer.alloc(value.length);
    for (let i = 0; i < value.length; i++) bytes[i] = Number(value[i]) & 0xff;
    return bytes;
  }
  return Buffer.from(String(value), 'utf8');
}

/** A facade as the script sees it: methods, enum values and the host's own `__` hooks, by name. */
export type Facade = Record<string, unknown>;

export interface FacadeKit {
  /** The host state's operations (protocol.ts). */
  readonly ops: HostOps;
  readonly clock: HostClock;
  readonly request: ExecutionRequest;
  readonly settings: RuntimeSettings;
  /** Wraps a facade's methods: counted as `typeName.method`, deadline-checked, errors in the script's realm. */
  api<T extends Facade>(typeName: string, members: T): T;
  toRealm(value: unknown): unknown;
  realmError(name: string, message: string): Error;
  isRealmError(value: unknown): value is Error;
  /** Bytes as a script sees them: Java bytes, numbers from -128 to 127, in a plain Array of its realm. */
  toSignedBytes(buffer: Buffer): number[];
  /** Throws `You do not have permission to call <name>` unless the AuthMode allows the capability. */
  guard(capability: Capability, name: string): void;
  /** Document writes: refused in custom functions and wherever the AuthMode cannot write. */
  guardWrite(method: string): void;
  /**
   * Refuses `name` when the manifest declares oauthScopes and none of the scopes Google documents for
   * the method is among those the user holds (the manifest's, or in the strict reading's
   * `partialConsent` those the user granted), with Apps Script's words and the scopes it needs.
   */
  requireScopes(name: string, scopes: readonly string[]): void;
  deny(name: string): never;
  /** Ends the execution if it is out of time. */
  tick(): void;
  expire(): never;
}

/** The kit, with what the runtime reads back when the execution ends. */
export interface ExecutionKit extends FacadeKit {
  /** Calls by `Type.method`, sent to the host once, when the execution ends. */
  readonly counts: Record<string, number>;
  isExpired(): boolean;
}

/** The script's realm: its constructors, values rebuilt in it, its errors, and the facades made for it. */
interface ScriptRealm {
  realm: { Array: ArrayConstructor; Date: DateConstructor; Object: ObjectConstructor; Error: ErrorConstructor };
  facades: WeakSet<object>;
  toRealm(value: unknown): unknown;
  realmError(name: string, message: string): Error;
  copySignedBytes(bytes: Int8Array): number[];
}

function scriptRealm(context: vm.Context): ScriptRealm {
  const realm = vm.runInContext('({ Array: Array, Date: Date, Object: Object, Error: Error })', context) as ScriptRealm['realm'];
  // Built by a loop compiled in the script's realm, which for megabytes is ten times faster than
  // copying a host array element by element across realms.
  const copySignedBytes = vm.runInContext(
    '(function (bytes) { var n = bytes.length, out = new Array(n); for (var i = 0; i < n; i++) out[i] = bytes[i]; return out; })',
    context,
  ) as (bytes: Int8Array) => number[];
  const facades = new WeakSet<object>();

  const toRealm = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (facades.has(value)) return value;
    // Already the script's own (the bytes of toSignedBytes): nothing to rebuild.
    if (value instanceof realm.Array) return value;
    if (isDate(value)) return new realm.Date(value.getTime());
    if (Array.isArray(value)) {
      const out = new realm.Array(value.length);
      for (let i = 0; i < value.length; i++) out[i] = toRealm(value[i]);
      return out;
    }
    const out = new realm.Object() as Record<string, unknown>;
    for (const [k, v] of Object.entries(value)) out[k] = toRealm(v);
    return out;
  };
  const realmError = (name: string, message: string): Error => {
    const error = new realm.Error(message);
    error.name = name;
    return error;
  };
  return { realm, facades, toRealm, realmError, copySignedBytes };
}

/** FacadeKit.api over the realm: each call counted, deadline-checked, and its errors made the script's. */
function facadeMaker(script: ScriptRealm, counts: Record<string, number>, tick: () => void): FacadeKit['api'] {
  const { realm, facades, toRealm, realmError } = script;
  return function api<T extends Facade>(typeName: string, members: T): T {
    const out: Facade = {};
    for (const [key, member] of Object.entries(members)) {
      if (typeof member !== 'function' || key.startsWith('__')) {
        // Enum values, and the host's own hooks (`__spec`, `__snapshot`), are neither counted nor wrapped.
        out[key] = member;
        continue;
      }
      const counterName = `${typeName}.${key}`;
      out[key] = function wrapped(this: unknown, ...args: unknown[]) {
        counts[counterName] = (counts[counterName] ?? 0) + 1;
        try {
          tick();
          const result = (member as (...a: unknown[]) => unknown).apply(out, args);
          tick();
          return result === out ? out : toRealm(result);
        } catch (error) {
          if (error instanceof ExceededTime) throw realmError('Error', EXCEEDED_MESSAGE);
          if (error instanceof realm.Error) throw error;
          const e = error as { name?: string; message?: string };
          throw realmError(e.name && e.name !== 'Error' ? e.name : 'Exception', e.message ?? String(error));
        }
      };
    }
    facades.add(out);
    return out as T;
  };
}

export function createFacadeKit(
  context: vm.Context,
  clock: HostClock,
  ops: HostOps,
  settings: RuntimeSettings,
  request: ExecutionRequest,
): ExecutionKit {
  const mode = request.authMode;
  const counts: Record<string, number> = {};
  let expired = false;
  const script = scriptRealm(context);
  const { realm, toRealm, realmError, copySignedBytes } = script;
  const expire = (): never => {
    expired = true;
    throw new ExceededTime(EXCEEDED_MESSAGE);
  };
  const tick = () => {
    if (expired || clock.now() > request.deadline) expire();
  };
  const deny = (name: string): never => {
    throw realmError('Exception', `You do not have permission to call ${name}`);
  };

  return {
    ops,
    clock,
    request,
    settings,
    counts,
    isExpired: () => expired,
    api: facadeMaker(script, counts, tick),
    toRealm,
    realmError,
    isRealmError: (value): value is Error => value instanceof realm.Error,
    toSignedBytes: (buffer) => copySignedBytes(new Int8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)),
    guard: (capability, name) => {
      if (!ALLOWED[mode].has(capability)) deny(name);
    },
    guardWrite: (method) => {
      if (mode === 'CUSTOM_FUNCTION' || !ALLOWED[mode].has('docWrite')) deny(method);
    },
    requireScopes: (name, scopes) => {
      // The kind reading asks the state nothing: every user holds the manifest's every scope.
      const held = settings.oauthScopes && settings.strict.partialConsent ? ops.consentGranted() : settings.oauthScopes;
      if (!held || scopes.some((s) => held.includes(s))) return;
      const needed = scopes.length === 1 ? scopes[0] : `(${scopes.join(' || ')})`;
      throw realmError('Exception', `You do not have permission to call ${name}. Required permissions: ${needed}`);
    },
    deny,
    tick,
    expire,
  };
}
