/**
 * One Apps Script execution: a fresh vm context whose globals are the service facades, the bundle's
 * top level run in it (as Apps Script does for every execution), then one top-level function called.
 * Facades check the execution's AuthMode, its deadline and custom-function read-only rules locally,
 * count every call, and reach shared state only through a synchronous `Backend` — the host state on
 * the main thread, or an Atomics RPC from a worker — so this file runs unchanged in both places.
 * Values cross into the script's realm as its own Arrays, Dates and Errors, so `instanceof` holds there.
 */
import vm from 'node:vm';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { HostClock } from './clock';
import { withText, type SyncFetchOutcome, type SyncFetchRequest } from './fetch-core';
import { columnToLetters, formatA1 } from './a1-notation';
import type { AuthModeName, RangeDescriptor } from './host-state';

/** Synchronous access to the host state; throws errors whose `name`/`message` are Apps Script's. */
export interface Backend {
  call(op: string, ...args: unknown[]): unknown;
}

export interface ExecutionRequest {
  executionId: number;
  /** Undefined: only run the bundle's top level (what `load` does). */
  functionName?: string;
  args: unknown[];
  authMode: AuthModeName;
  user: string;
  startedAt: number;
  deadline: number;
  /** Custom functions: find the function whatever the case the formula used. */
  caseInsensitive?: boolean;
}

export interface RuntimeSettings {
  addOnName: string;
  /** Per-request timeout UrlFetchApp uses, bounded further by the execution's remaining time. */
  fetchTimeoutMs: number;
  urlLengthLimit: number;
}

export interface ExecutionOutcome {
  ok: boolean;
  value?: unknown;
  error?: { name: string; message: string; stack?: string };
  exceededTime?: boolean;
  functionNotFound?: boolean;
  logText: string;
}

export const EXCEEDED_MESSAGE = 'Exceeded maximum execution time';
const TRUNCATED_RESPONSE_CHARS = 1000;

type Capability = 'menu' | 'ui' | 'sidebar' | 'docRead' | 'docWrite' | 'props' | 'cache' | 'lock' | 'fetch' | 'utilities' | 'html' | 'session' | 'mail' | 'triggers';

const ALLOWED: Record<AuthModeName, ReadonlySet<Capability>> = {
  NONE: new Set(['menu', 'utilities', 'html']),
  LIMITED: new Set(['menu', 'docRead', 'docWrite', 'props', 'cache', 'lock', 'utilities', 'html', 'session']),
  CUSTOM_FUNCTION: new Set(['docRead', 'props', 'cache', 'lock', 'fetch', 'utilities', 'html']),
  FULL: new Set(['menu', 'ui', 'sidebar', 'docRead', 'docWrite', 'props', 'cache', 'lock', 'fetch', 'utilities', 'html', 'session', 'mail', 'triggers']),
};

class ExceededTime extends Error {}

const isDate = (v: unknown): v is Date => Object.prototype.toString.call(v) === '[object Date]';

/** Deep copy of script data into this (host) realm. */
export function fromRealm(value: unknown, seen = new Set<unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (isDate(value)) return new Date(value.getTime());
  if (seen.has(value)) return undefined;
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => fromRealm(v, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v !== 'function') out[k] = fromRealm(v, seen);
  return out;
}

function titleCaseHeader(name: string): string {
  return name.split('-').map((part) => (part ? part[0]!.toUpperCase() + part.slice(1).toLowerCase() : part)).join('-');
}

/** A script's Byte[] (signed or not, from any realm) or a string (as UTF-8) as bytes. */
function bytesToBuffer(value: unknown): Buffer {
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (Array.isArray(value)) {
    // An indexed loop: iterating a multi-megabyte array of another realm any other way is ten times slower.
    const bytes = Buffer.alloc(value.length);
    for (let i = 0; i < value.length; i++) bytes[i] = Number(value[i]) & 0xff;
    return bytes;
  }
  return Buffer.from(String(value), 'utf8');
}

/** Apps Script's gzip blobs carry this content type. */
const GZIP_CONTENT_TYPE = 'application/x-gzip';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Utilities.formatDate: the common SimpleDateFormat letters, evaluated in `timeZone`. */
export function formatDate(date: Date, timeZone: string, pattern: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short', hourCycle: 'h23',
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const year = Number(get('year'));
  const month = Number(get('month'));
  const day = Number(get('day'));
  const hour = Number(get('hour')) % 24;
  const minute = Number(get('minute'));
  const second = Number(get('second'));
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  const offsetMinutes = Math.round((Date.UTC(year, month - 1, day, hour, minute, second) - Math.floor(date.getTime() / 1000) * 1000) / 60000);
  const pad = (n: number, width: number) => String(Math.abs(n)).padStart(width, '0');
  const offset = (colon: boolean) => `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offsetMinutes) / 60), 2)}${colon ? ':' : ''}${pad(Math.abs(offsetMinutes) % 60, 2)}`;
  return pattern.replace(/'([^']*)'|y+|M+|d+|H+|h+|m+|s+|S+|E+|a+|Z+|X+|u+/g, (token, literal: string | undefined) => {
    if (literal !== undefined) return literal === '' ? "'" : literal;
    const n = token.length;
    switch (token[0]) {
      case 'y': return n === 2 ? pad(year % 100, 2) : pad(year, n);
      case 'M': return n >= 4 ? MONTHS[month - 1]! : n === 3 ? MONTHS[month - 1]!.slice(0, 3) : pad(month, n);
      case 'd': return pad(day, n);
      case 'H': return pad(hour, n);
      case 'h': return pad(hour % 12 === 0 ? 12 : hour % 12, n);
      case 'm': return pad(minute, n);
      case 's': return pad(second, n);
      case 'S': return pad(date.getUTCMilliseconds(), n);
      case 'E': return n >= 4 ? DAYS[weekday]! : DAYS[weekday]!.slice(0, 3);
      case 'u': return String(weekday === 0 ? 7 : weekday);
      case 'a': return hour < 12 ? 'AM' : 'PM';
      case 'Z': return offset(false);
      case 'X': return offsetMinutes === 0 ? 'Z' : offset(n >= 3);
      default: return token;
    }
  });
}

/**
 * Runs one execution. Never throws for script errors: the outcome carries them.
 */
export function runExecution(script: vm.Script, clock: HostClock, backend: Backend, settings: RuntimeSettings, request: ExecutionRequest): ExecutionOutcome {
  const mode = request.authMode;
  const localCounts: Record<string, number> = {};
  const logLines: string[] = [];
  let expired = false;
  const context = vm.createContext({});
  const realm = vm.runInContext('({ Array: Array, Date: Date, Object: Object, Error: Error })', context) as {
    Array: ArrayConstructor; Date: DateConstructor; Object: ObjectConstructor; Error: ErrorConstructor;
  };
  /**
   * Bytes as a script sees them: Apps Script hands out Java bytes, numbers from -128 to 127, as a plain
   * Array. Built by a loop compiled in the script's realm, which for megabytes is ten times faster than
   * copying a host array element by element across realms.
   */
  const copySignedBytes = vm.runInContext('(function (bytes) { var n = bytes.length, out = new Array(n); for (var i = 0; i < n; i++) out[i] = bytes[i]; return out; })', context) as (bytes: Int8Array) => number[];
  const toSignedBytes = (buffer: Buffer): number[] => copySignedBytes(new Int8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength));
  const facades = new WeakSet<object>();

  if (clock.virtual) {
    // Scripts see the host's virtual time through `new Date()` and `Date.now()`.
    const install = vm.runInContext(`(function (now) {
      var RealDate = Date;
      function VDate(a, b, c, d, e, f, g) {
        if (!new.target) return new RealDate(now()).toString();
        switch (arguments.length) {
          case 0: return new RealDate(now());
          case 1: return new RealDate(a);
          default: return new RealDate(a, b, c === undefined ? 1 : c, d || 0, e || 0, f || 0, g || 0);
        }
      }
      VDate.prototype = RealDate.prototype;
      VDate.now = function () { return now(); };
      VDate.parse = RealDate.parse;
      VDate.UTC = RealDate.UTC;
      Object.defineProperty(RealDate.prototype, 'constructor', { value: VDate, writable: true, configurable: true });
      globalThis.Date = VDate;
    })`, context) as (now: () => number) => void;
    install(() => clock.now());
  }

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
  const guard = (capability: Capability, name: string) => {
    if (!ALLOWED[mode].has(capability)) deny(name);
  };
  const guardWrite = (method: string) => {
    if (mode === 'CUSTOM_FUNCTION' || !ALLOWED[mode].has('docWrite')) deny(method);
  };

  /** Wraps facade methods: counts the call, enforces the deadline, and rethrows errors in the script's realm. */
  function api<T extends Record<string, unknown>>(typeName: string, members: T): T {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(members)) {
      if (typeof member !== 'function' || key.startsWith('__')) {
        // Enum values, and the host's own hooks (`__spec`, `__snapshot`), are neither counted nor wrapped.
        out[key] = member;
        continue;
      }
      const counterName = `${typeName}.${key}`;
      out[key] = function wrapped(this: unknown, ...args: unknown[]) {
        localCounts[counterName] = (localCounts[counterName] ?? 0) + 1;
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
  }

  const call = (op: string, ...args: unknown[]) => backend.call(op, ...args);
  const log = (source: 'Logger' | 'console', level: 'log' | 'info' | 'warn' | 'error', text: string) => {
    logLines.push(text);
    call('log', source, level, text);
  };
  const stringify = (value: unknown): string => {
    if (typeof value === 'string') return value;
    if (isDate(value) || value === undefined || value === null || typeof value !== 'object') return String(value);
    if (value instanceof realm.Error || value instanceof Error) return `${(value as Error).name}: ${(value as Error).message}`;
    try {
      return JSON.stringify(fromRealm(value));
    } catch {
      return String(value);
    }
  };
  const formatLog = (args: unknown[]): string => {
    const [first, ...rest] = args;
    if (typeof first === 'string' && rest.length > 0 && /%[sdifoO]/.test(first)) {
      let index = 0;
      const text = first.replace(/%[sdifoO]/g, () => stringify(rest[index++]));
      return [text, ...rest.slice(index).map(stringify)].join(' ');
    }
    return args.map(stringify).join(' ');
  };

  // ------------------------------------------------------------------ Blob, Utilities

  /** The bytes behind each Blob handed to the script, so a Blob given back (gzip, ungzip, newBlob) is read without copying. */
  const blobBytes = new WeakMap<object, () => Buffer>();
  const makeBlob = (bytes: Buffer, contentType: string | null, name: string | null): unknown => {
    let data = bytes;
    let type = contentType;
    let blobName = name;
    const blob = api('Blob', {
      getDataAsString: (charset?: string) => data.toString(charset && /^(iso-8859-1|latin1)$/i.test(charset) ? 'latin1' : 'utf8'),
      getBytes: () => toSignedBytes(data),
      setBytes: (b: unknown) => { data = bytesToBuffer(b); return blob; },
      setDataFromString: (s: string) => { data = Buffer.from(String(s), 'utf8'); return blob; },
      getContentType: () => type,
      setContentType: (t: string) => { type = t; return blob; },
      getName: () => blobName,
      setName: (n: string) => { blobName = n; return blob; },
      copyBlob: () => makeBlob(Buffer.from(data), type, blobName),
      getAs: () => blob,
      isGoogleType: () => false,
    });
    blobBytes.set(blob as object, () => data);
    return blob;
  };
  /** The bytes of a BlobSource: a Blob of this execution, or anything whose getBlob() gives one. */
  const bytesOfBlobSource = (source: unknown, method: string): Buffer => {
    const direct = source !== null && typeof source === 'object' ? blobBytes.get(source) : undefined;
    if (direct) return direct();
    const viaGetBlob = (source as { getBlob?: () => unknown } | null)?.getBlob;
    const blob = typeof viaGetBlob === 'function' ? viaGetBlob.call(source) : undefined;
    const bytes = blob !== null && typeof blob === 'object' ? blobBytes.get(blob) : undefined;
    if (!bytes) throw realmError('Exception', `Invalid argument: blob (${method} takes a Blob)`);
    return bytes();
  };

  const Utilities = api('Utilities', {
    sleep: (ms: number) => {
      guard('utilities', 'Utilities.sleep');
      const wanted = Number(ms);
      if (!(wanted >= 0) || wanted > 300000) throw realmError('Exception', `Invalid argument: milliseconds`);
      if (clock.virtual) clock.advance(wanted);
      else {
        const remaining = request.deadline - clock.now();
        clock.sleep(Math.min(wanted, Math.max(0, remaining) + 1));
      }
    },
    base64Encode: (data: unknown) => bytesToBuffer(data).toString('base64'),
    base64EncodeWebSafe: (data: unknown) => bytesToBuffer(data).toString('base64').replace(/\+/g, '-').replace(/\//g, '_'),
    base64Decode: (text: string) => toSignedBytes(Buffer.from(String(text), 'base64')),
    base64DecodeWebSafe: (text: string) => toSignedBytes(Buffer.from(String(text).replace(/-/g, '+').replace(/_/g, '/'), 'base64')),
    newBlob: (data?: unknown, contentType?: string, name?: string) => makeBlob(data === undefined ? Buffer.alloc(0) : bytesToBuffer(data), contentType ?? null, name ?? null),
    gzip: (source: unknown, name?: string) => makeBlob(zlib.gzipSync(bytesOfBlobSource(source, 'Utilities.gzip')), GZIP_CONTENT_TYPE, name === undefined ? null : String(name)),
    ungzip: (source: unknown) => {
      const bytes = bytesOfBlobSource(source, 'Utilities.ungzip');
      try {
        return makeBlob(zlib.gunzipSync(bytes), null, null);
      } catch {
        throw realmError('Exception', 'Could not decompress gzip data.');
      }
    },
    formatDate: (date: Date, timeZone: string, pattern: string) => {
      if (!isDate(date)) throw realmError('Exception', 'Invalid argument: date');
      return formatDate(new Date(date.getTime()), String(timeZone), String(pattern));
    },
    computeDigest: (algorithm: string, value: unknown) => {
      const name = { MD5: 'md5', SHA_1: 'sha1', SHA_256: 'sha256', SHA_384: 'sha384', SHA_512: 'sha512' }[String(algorithm)] ?? 'sha256';
      return toSignedBytes(crypto.createHash(name).update(bytesToBuffer(fromRealm(value))).digest());
    },
    computeHmacSha256Signature: (value: unknown, key: unknown) =>
      toSignedBytes(crypto.createHmac('sha256', bytesToBuffer(fromRealm(key))).update(bytesToBuffer(fromRealm(value))).digest()),
    getUuid: () => crypto.randomUUID(),
    DigestAlgorithm: { MD5: 'MD5', SHA_1: 'SHA_1', SHA_256: 'SHA_256', SHA_384: 'SHA_384', SHA_512: 'SHA_512' },
    Charset: { UTF_8: 'UTF-8', US_ASCII: 'US-ASCII' },
  });

  // ------------------------------------------------------------------ Logger, console

  const Logger = api('Logger', {
    log: (...args: unknown[]) => {
      log('Logger', 'log', formatLog(args));
      return Logger;
    },
    getLog: () => logLines.join('\n'),
    clear: () => {
      logLines.length = 0;
    },
  });
  const consoleFacade = {
    log: (...args: unknown[]) => log('console', 'log', formatLog(args)),
    info: (...args: unknown[]) => log('console', 'info', formatLog(args)),
    debug: (...args: unknown[]) => log('console', 'log', formatLog(args)),
    warn: (...args: unknown[]) => log('console', 'warn', formatLog(args)),
    error: (...args: unknown[]) => log('console', 'error', formatLog(args)),
  };

  // ------------------------------------------------------------------ Properties, Cache, Lock

  const properties = (scope: string) => {
    const self = api('Properties', {
      getProperty: (key: string) => call('props.get', scope, String(key)),
      getProperties: () => call('props.getAll', scope),
      getKeys: () => call('props.keys', scope),
      setProperty: (key: string, value: unknown) => {
        call('props.set', scope, { [String(key)]: String(value) }, false, 'setProperty');
        return self;
      },
      setProperties: (map: Record<string, unknown>, deleteAllOthers?: boolean) => {
        const entries = Object.entries(fromRealm(map) as Record<string, unknown>).map(([k, v]) => [k, String(v)]);
        call('props.set', scope, Object.fromEntries(entries), deleteAllOthers === true, 'setProperties');
        return self;
      },
      deleteProperty: (key: string) => {
        call('props.delete', scope, String(key), 'deleteProperty');
        return self;
      },
      deleteAllProperties: () => {
        call('props.delete', scope, null, 'deleteAllProperties');
        return self;
      },
    });
    return self;
  };
  const PropertiesService = api('PropertiesService', {
    getUserProperties: () => (guard('props', 'PropertiesService.getUserProperties'), properties('user')),
    getDocumentProperties: () => (guard('props', 'PropertiesService.getDocumentProperties'), properties('document')),
    getScriptProperties: () => (guard('props', 'PropertiesService.getScriptProperties'), properties('script')),
  });

  const cache = (scope: string) =>
    api('Cache', {
      get: (key: string) => call('cache.get', scope, String(key)),
      getAll: (keys: string[]) => call('cache.getAll', scope, (fromRealm(keys) as unknown[]).map(String)),
      put: (key: string, value: unknown, ttl?: number) => {
        call('cache.put', scope, { [String(key)]: String(value) }, ttl === undefined ? undefined : Number(ttl));
      },
      putAll: (values: Record<string, unknown>, ttl?: number) => {
        const entries = Object.entries(fromRealm(values) as Record<string, unknown>).map(([k, v]) => [k, String(v)]);
        call('cache.put', scope, Object.fromEntries(entries), ttl === undefined ? undefined : Number(ttl));
      },
      remove: (key: string) => {
        call('cache.remove', scope, [String(key)]);
      },
      removeAll: (keys: string[]) => {
        call('cache.remove', scope, (fromRealm(keys) as unknown[]).map(String));
      },
    });
  const CacheService = api('CacheService', {
    getUserCache: () => (guard('cache', 'CacheService.getUserCache'), cache('user')),
    getDocumentCache: () => (guard('cache', 'CacheService.getDocumentCache'), cache('document')),
    getScriptCache: () => (guard('cache', 'CacheService.getScriptCache'), cache('script')),
  });

  const lock = (kind: string) =>
    api('Lock', {
      tryLock: (ms: number) => call('lock.acquire', kind, Math.max(0, Number(ms) || 0)) === true,
      waitLock: (ms: number) => {
        if (call('lock.acquire', kind, Math.max(0, Number(ms) || 0)) !== true) {
          tick();
          throw realmError('Exception', 'Lock timeout: another process was holding the lock for too long.');
        }
      },
      releaseLock: () => {
        call('lock.release', kind);
      },
      hasLock: () => call('lock.has', kind) === true,
    });
  const LockService = api('LockService', {
    getDocumentLock: () => (guard('lock', 'LockService.getDocumentLock'), lock('document')),
    getUserLock: () => (guard('lock', 'LockService.getUserLock'), lock('user')),
    getScriptLock: () => (guard('lock', 'LockService.getScriptLock'), lock('script')),
  });

  // ------------------------------------------------------------------ UrlFetchApp

  const buildRequest = (urlArg: unknown, paramsArg: unknown): SyncFetchRequest & { muted: boolean } => {
    const params = (fromRealm(paramsArg ?? {}) ?? {}) as Record<string, unknown>;
    const url = String(urlArg);
    if (url.length > settings.urlLengthLimit) throw realmError('Exception', 'Limit Exceeded: URLFetch URL Length.');
    if (!/^https?:\/\//i.test(url)) throw realmError('Exception', `Invalid argument: ${url}`);
    const method = String(params.method ?? 'get').toUpperCase();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((params.headers ?? {}) as Record<string, unknown>)) headers[k] = String(v);
    let body: string | undefined;
    const rawPayload = (paramsArg as { payload?: { getBytes?: () => number[]; getContentType?: () => string | null } } | undefined)?.payload;
    if (rawPayload && typeof rawPayload.getBytes === 'function') {
      // A Blob payload is sent as its bytes, with its own content type unless one is given.
      params.payload = bytesToBuffer(fromRealm(rawPayload.getBytes())).toString('utf8');
      if (params.contentType === undefined && typeof rawPayload.getContentType === 'function') params.contentType = rawPayload.getContentType() ?? undefined;
    }
    const payload = params.payload;
    if (payload !== undefined && payload !== null) {
      if (typeof payload === 'string') body = payload;
      else if (Array.isArray(payload)) body = bytesToBuffer(payload).toString('utf8');
      else {
        body = Object.entries(payload as Record<string, unknown>).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&');
      }
      const hasContentType = Object.keys(headers).some((k) => k.toLowerCase() === 'content-type');
      if (!hasContentType) headers['Content-Type'] = String(params.contentType ?? 'application/x-www-form-urlencoded');
    } else if (params.contentType !== undefined) {
      headers['Content-Type'] = String(params.contentType);
    }
    return { url, method, headers, body, followRedirects: params.followRedirects !== false, muted: params.muteHttpExceptions === true };
  };

  const httpResponse = (outcome: SyncFetchOutcome, muted: boolean, url: string) => {
    if (!outcome.ok) throw realmError('Exception', outcome.error.message);
    // A response from another thread arrives as bytes only: give it its text again (decoded on first use).
    const res = 'body' in outcome.response ? outcome.response : withText(outcome.response);
    if (!muted && (res.status < 200 || res.status > 299)) {
      const origin = (() => {
        try {
          const u = new URL(url);
          return `${u.protocol}//${u.host}`;
        } catch {
          return url;
        }
      })();
      throw realmError('Exception', `Request failed for ${origin} returned code ${res.status}. Truncated server response: ${res.body.slice(0, TRUNCATED_RESPONSE_CHARS)} (use muteHttpExceptions option to examine full response)`);
    }
    const bytes = Buffer.from(res.bodyBytes.buffer, res.bodyBytes.byteOffset, res.bodyBytes.byteLength);
    return api('HTTPResponse', {
      getResponseCode: () => res.status,
      getContentText: (charset?: string) => (charset && /^(iso-8859-1|latin1)$/i.test(charset) ? bytes.toString('latin1') : res.body),
      getContent: () => toSignedBytes(bytes),
      getHeaders: () => {
        const out: Record<string, string> = {};
        for (const [name, value] of res.headerList) out[titleCaseHeader(name)] = value;
        return out;
      },
      getAllHeaders: () => {
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of res.headerList) {
          const key = titleCaseHeader(name);
          const existing = out[key];
          out[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
        }
        return out;
      },
      getBlob: () => makeBlob(bytes, res.headers['content-type'] ?? null, null),
      getAs: () => makeBlob(bytes, res.headers['content-type'] ?? null, null),
    });
  };

  const runFetches = (requests: Array<SyncFetchRequest & { muted: boolean }>) => {
    const remaining = request.deadline - clock.now();
    // In real time, a request still in flight when the execution's time is up ends the execution.
    const bound = clock.virtual ? settings.fetchTimeoutMs : Math.min(settings.fetchTimeoutMs, Math.max(1, remaining));
    const limitedByDeadline = !clock.virtual && bound < settings.fetchTimeoutMs;
    const plain = requests.map(({ muted: _muted, ...rest }) => rest);
    const outcomes = call('fetch', plain, bound) as SyncFetchOutcome[];
    if (limitedByDeadline && outcomes.some((o) => !o.ok && o.error.code === 'TIMEOUT')) expire();
    tick();
    return outcomes.map((outcome, i) => httpResponse(outcome, requests[i]!.muted, requests[i]!.url));
  };

  const UrlFetchApp = api('UrlFetchApp', {
    fetch: (url: string, params?: unknown) => {
      guard('fetch', 'UrlFetchApp.fetch');
      return runFetches([buildRequest(url, params)])[0];
    },
    fetchAll: (requests: unknown[]) => {
      guard('fetch', 'UrlFetchApp.fetchAll');
      const list = (Array.isArray(requests) ? requests : []).map((r) => {
        if (typeof r === 'string') return buildRequest(r, {});
        const obj = fromRealm(r) as Record<string, unknown>;
        return buildRequest(obj.url, obj);
      });
      return runFetches(list);
    },
    getRequest: (url: string, params?: unknown) => {
      guard('fetch', 'UrlFetchApp.getRequest');
      const built = buildRequest(url, params);
      return { url: built.url, method: (built.method ?? 'GET').toLowerCase(), headers: built.headers, payload: built.body ?? '', followRedirects: built.followRedirects, muteHttpExceptions: built.muted };
    },
  });

  // ------------------------------------------------------------------ SpreadsheetApp

  const checkGrid = (desc: RangeDescriptor, grid: unknown) => {
    const rows = Array.isArray(grid) ? grid : [];
    if (rows.length !== desc.numRows) {
      throw realmError('Exception', `The number of rows in the data does not match the number of rows in the range. The data has ${rows.length} but the range has ${desc.numRows}.`);
    }
    for (const row of rows) {
      const width = Array.isArray(row) ? row.length : 0;
      if (width !== desc.numColumns) {
        throw realmError('Exception', `The number of columns in the data does not match the number of columns in the range. The data has ${width} but the range has ${desc.numColumns}.`);
      }
    }
    return fromRealm(rows) as unknown[][];
  };
  const fill = (desc: RangeDescriptor, value: unknown) =>
    Array.from({ length: desc.numRows }, () => Array.from({ length: desc.numColumns }, () => fromRealm(value)));

  const makeRange = (desc: RangeDescriptor): Record<string, unknown> => {
    const read = (field: string) => call('range.get', desc, field) as unknown[][];
    const write = (method: string, field: string, grid: unknown[][]) => {
      guardWrite(method);
      call('range.set', desc, field, grid);
    };
    const range: Record<string, unknown> = api('Range', {
      getValues: () => read('values'),
      getValue: () => read('values')[0]![0],
      getDisplayValues: () => read('displayValues'),
      getDisplayValue: () => read('displayValues')[0]![0],
      setValues: (values: unknown) => (guardWrite('setValues'), write('setValues', 'values', checkGrid(desc, values)), range),
      setValue: (value: unknown) => (write('setValue', 'values', fill(desc, value)), range),
      getFormulas: () => read('formulas'),
      getFormula: () => read('formulas')[0]![0],
      setFormula: (formula: string) => (write('setFormula', 'formulas', fill(desc, String(formula))), range),
      setFormulas: (formulas: unknown) => (guardWrite('setFormulas'), write('setFormulas', 'formulas', checkGrid(desc, formulas)), range),
      getNumberFormats: () => read('numberFormats'),
      getNumberFormat: () => read('numberFormats')[0]![0],
      setNumberFormat: (format: string) => (write('setNumberFormat', 'numberFormats', fill(desc, String(format))), range),
      setNumberFormats: (formats: unknown) => (guardWrite('setNumberFormats'), write('setNumberFormats', 'numberFormats', checkGrid(desc, formats)), range),
      getFontWeight: () => read('fontWeights')[0]![0],
      getFontWeights: () => read('fontWeights'),
      setFontWeight: (weight: string | null) => (write('setFontWeight', 'fontWeights', fill(desc, weight)), range),
      setFontWeights: (weights: unknown) => (guardWrite('setFontWeights'), write('setFontWeights', 'fontWeights', checkGrid(desc, weights)), range),
      getBackground: () => read('backgrounds')[0]![0],
      getBackgrounds: () => read('backgrounds'),
      setBackground: (color: string | null) => (write('setBackground', 'backgrounds', fill(desc, color)), range),
      getNote: () => read('notes')[0]![0],
      getNotes: () => read('notes'),
      setNote: (note: string) => (write('setNote', 'notes', fill(desc, note ?? '')), range),
      setNotes: (notes: unknown) => (guardWrite('setNotes'), write('setNotes', 'notes', checkGrid(desc, notes)), range),
      clearContent: () => (guardWrite('clearContent'), call('range.clear', desc, { contents: true, formats: false }), range),
      clearFormat: () => (guardWrite('clearFormat'), call('range.clear', desc, { contents: false, formats: true }), range),
      clearNote: () => (guardWrite('clearNote'), call('range.clear', desc, { contents: false, formats: false, notes: true }), range),
      clear: (options?: { contentsOnly?: boolean; formatOnly?: boolean }) => {
        guardWrite('clear');
        const o = (fromRealm(options) ?? {}) as { contentsOnly?: boolean; formatOnly?: boolean };
        call('range.clear', desc, { contents: !o.formatOnly, formats: !o.contentsOnly, notes: !o.contentsOnly && !o.formatOnly });
        return range;
      },
      isBlank: () => read('values').every((row) => row.every((v) => v === '')),
      getA1Notation: () => formatA1(desc),
      getRow: () => desc.row,
      getColumn: () => desc.column,
      getRowIndex: () => desc.row,
      getLastRow: () => desc.row + desc.numRows - 1,
      getLastColumn: () => desc.column + desc.numColumns - 1,
      getNumRows: () => desc.numRows,
      getNumColumns: () => desc.numColumns,
      getHeight: () => desc.numRows,
      getWidth: () => desc.numColumns,
      getSheet: () => makeSheet(desc.sheetId),
      getGridId: () => desc.sheetId,
      offset: (rowOffset: number, columnOffset: number, numRows?: number, numColumns?: number) =>
        rangeAt(desc.sheetId, desc.row + Number(rowOffset), desc.column + Number(columnOffset), numRows ?? desc.numRows, numColumns ?? desc.numColumns),
      getCell: (row: number, column: number) => rangeAt(desc.sheetId, desc.row + Number(row) - 1, desc.column + Number(column) - 1, 1, 1),
      // Selects the range as a user would: the active sheet, getActiveRange and getCurrentCell follow.
      activate: () => (guardWrite('activate'), call('ss.setActiveRange', desc), range),
      // Formatting the host does not model: allowed where writes are, recorded only as calls.
      setHorizontalAlignment: () => (guardWrite('setHorizontalAlignment'), range),
      setVerticalAlignment: () => (guardWrite('setVerticalAlignment'), range),
      setWrap: () => (guardWrite('setWrap'), range),
      setFontColor: () => (guardWrite('setFontColor'), range),
      setFontSize: () => (guardWrite('setFontSize'), range),
      setFontFamily: () => (guardWrite('setFontFamily'), range),
      setBorder: () => (guardWrite('setBorder'), range),
    });
    return range;
  };

  const rangeAt = (sheetId: number, row: number, column: number, numRows: number, numColumns: number) => {
    const desc: RangeDescriptor = { sheetId, row: Number(row), column: Number(column), numRows: Number(numRows), numColumns: Number(numColumns) };
    call('sheet.checkBox', sheetId, { row: desc.row, column: desc.column, numRows: desc.numRows, numColumns: desc.numColumns });
    return makeRange(desc);
  };

  const chartTypes = { AREA: 'AREA', BAR: 'BAR', COLUMN: 'COLUMN', COMBO: 'COMBO', LINE: 'LINE', PIE: 'PIE', SCATTER: 'SCATTER', TABLE: 'TABLE', TIMELINE: 'TIMELINE' };
  const Charts = { ChartType: chartTypes };

  const makeChart = (spec: { id?: number; type: string; ranges: string[]; position?: { row: number; column: number }; options: Record<string, unknown> }) =>
    api('EmbeddedChart', {
      getChartId: () => spec.id ?? null,
      getType: () => spec.type,
      getRanges: () => spec.ranges.slice(),
      getOptions: () => api('ChartOptions', { get: (key: string) => spec.options[key] ?? null }),
      __spec: spec,
    });

  const makeChartBuilder = (sheetId: number) => {
    const spec = { type: 'LINE', ranges: [] as string[], position: undefined as { row: number; column: number } | undefined, options: {} as Record<string, unknown> };
    const builder: Record<string, unknown> = api('EmbeddedChartBuilder', {
      setChartType: (type: string) => ((spec.type = String(type)), builder),
      asLineChart: () => ((spec.type = 'LINE'), builder),
      asColumnChart: () => ((spec.type = 'COLUMN'), builder),
      asBarChart: () => ((spec.type = 'BAR'), builder),
      asPieChart: () => ((spec.type = 'PIE'), builder),
      addRange: (range: { getA1Notation(): string; getSheet(): { getName(): string } }) => {
        spec.ranges.push(`${range.getSheet().getName()}!${range.getA1Notation()}`);
        return builder;
      },
      setPosition: (row: number, column: number) => ((spec.position = { row: Number(row), column: Number(column) }), builder),
      setOption: (key: string, value: unknown) => ((spec.options[String(key)] = fromRealm(value)), builder),
      build: () => makeChart({ ...spec, ranges: spec.ranges.slice(), options: { ...spec.options } }),
    });
    void sheetId;
    return builder;
  };

  const makeSheet = (sheetId: number): Record<string, unknown> => {
    const info = () => call('sheet.info', sheetId) as { name: string; maxRows: number; maxColumns: number; frozenRows: number; frozenColumns: number; hidden: boolean; index: number };
    const extent = () => call('sheet.extent', sheetId) as { lastRow: number; lastColumn: number };
    const sheet: Record<string, unknown> = api('Sheet', {
      getName: () => info().name,
      setName: (name: string) => (guardWrite('setName'), call('sheet.update', sheetId, { name: String(name) }), sheet),
      getSheetId: () => sheetId,
      getIndex: () => info().index,
      getParent: () => spreadsheet(),
      getRange: (a: unknown, column?: number, numRows?: number, numColumns?: number) => {
        if (typeof a === 'string') return makeRange(call('ss.resolve', a, sheetId) as RangeDescriptor);
        return rangeAt(sheetId, Number(a), Number(column), numRows ?? 1, numColumns ?? 1);
      },
      getDataRange: () => {
        const e = extent();
        return rangeAt(sheetId, 1, 1, Math.max(1, e.lastRow), Math.max(1, e.lastColumn));
      },
      getLastRow: () => extent().lastRow,
      getLastColumn: () => extent().lastColumn,
      getMaxRows: () => info().maxRows,
      getMaxColumns: () => info().maxColumns,
      insertRowsAfter: (after: number, howMany: number) => (guardWrite('insertRowsAfter'), call('sheet.update', sheetId, { maxRows: info().maxRows + Number(howMany) }), void after, sheet),
      insertColumnsAfter: (after: number, howMany: number) => (guardWrite('insertColumnsAfter'), call('sheet.update', sheetId, { maxColumns: info().maxColumns + Number(howMany) }), void after, sheet),
      appendRow: (values: unknown[]) => (guardWrite('appendRow'), call('sheet.appendRow', sheetId, fromRealm(values)), sheet),
      clear: () => (guardWrite('clear'), call('sheet.clear', sheetId, { contents: true, formats: true }), sheet),
      clearContents: () => (guardWrite('clearContents'), call('sheet.clear', sheetId, { contents: true, formats: false }), sheet),
      clearFormats: () => (guardWrite('clearFormats'), call('sheet.clear', sheetId, { contents: false, formats: true }), sheet),
      getFrozenRows: () => info().frozenRows,
      setFrozenRows: (rows: number) => (guardWrite('setFrozenRows'), call('sheet.update', sheetId, { frozenRows: Number(rows) }), sheet),
      getFrozenColumns: () => info().frozenColumns,
      hideSheet: () => (guardWrite('hideSheet'), call('sheet.update', sheetId, { hidden: true }), sheet),
      showSheet: () => (guardWrite('showSheet'), call('sheet.update', sheetId, { hidden: false }), sheet),
      isSheetHidden: () => info().hidden === true,
      setFrozenColumns: (columns: number) => (guardWrite('setFrozenColumns'), call('sheet.update', sheetId, { frozenColumns: Number(columns) }), sheet),
      autoResizeColumns: () => (guardWrite('autoResizeColumns'), sheet),
      autoResizeColumn: () => (guardWrite('autoResizeColumn'), sheet),
      setColumnWidth: () => (guardWrite('setColumnWidth'), sheet),
      activate: () => (guardWrite('activate'), call('ss.setActiveSheet', sheetId), sheet),
      newChart: () => makeChartBuilder(sheetId),
      insertChart: (chart: { __spec: unknown }) => {
        guardWrite('insertChart');
        call('sheet.insertChart', sheetId, chart.__spec);
      },
      getCharts: () => (call('sheet.charts', sheetId) as Array<Parameters<typeof makeChart>[0]>).map(makeChart),
      removeChart: (chart: { getChartId(): number }) => {
        guardWrite('removeChart');
        call('sheet.removeChart', sheetId, chart.getChartId());
      },
    });
    return sheet;
  };

  const makeUser = (email: string) => api('User', { getEmail: () => email, getUserLoginId: () => email });

  const spreadsheet = (): Record<string, unknown> => {
    const info = () => call('ss.info') as { id: string; name: string; timeZone: string; owner: string };
    const ss: Record<string, unknown> = api('Spreadsheet', {
      getId: () => info().id,
      getName: () => info().name,
      getUrl: () => `https://docs.google.com/spreadsheets/d/${info().id}/edit`,
      getSpreadsheetTimeZone: () => info().timeZone,
      setSpreadsheetTimeZone: (tz: string) => (guardWrite('setSpreadsheetTimeZone'), call('ss.setTimeZone', String(tz))),
      getOwner: () => makeUser(info().owner),
      getSheets: () => (call('ss.sheets') as Array<{ id: number }>).map((s) => makeSheet(s.id)),
      getNumSheets: () => (call('ss.sheets') as unknown[]).length,
      getSheetByName: (name: string) => {
        const found = (call('ss.sheets') as Array<{ id: number; name: string }>).find((s) => s.name === String(name));
        return found ? makeSheet(found.id) : null;
      },
      getActiveSheet: () => makeSheet(call('ss.activeSheet') as number),
      setActiveSheet: (sheet: { getSheetId(): number }) => {
        guardWrite('setActiveSheet');
        call('ss.setActiveSheet', sheet.getSheetId());
        return makeSheet(sheet.getSheetId());
      },
      insertSheet: (a?: unknown, b?: unknown) => {
        guardWrite('insertSheet');
        const name = typeof a === 'string' ? a : undefined;
        const index = typeof a === 'number' ? a : typeof b === 'number' ? b : undefined;
        return makeSheet(call('ss.insertSheet', name, index) as number);
      },
      deleteSheet: (sheet: { getSheetId(): number }) => {
        guardWrite('deleteSheet');
        call('ss.deleteSheet', sheet.getSheetId());
      },
      getRange: (a1: string) => makeRange(call('ss.resolve', String(a1)) as RangeDescriptor),
      getRangeByName: (name: string) => {
        const desc = call('ss.named.get', String(name)) as RangeDescriptor | null;
        return desc ? makeRange(desc) : null;
      },
      setNamedRange: (name: string, range: { getGridId(): number; getRow(): number; getColumn(): number; getNumRows(): number; getNumColumns(): number }) => {
        guardWrite('setNamedRange');
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(String(name)) || /^[A-Za-z]{1,3}\d+$/.test(String(name))) {
          throw realmError('Exception', 'The name of the named range is invalid.');
        }
        call('ss.named.set', String(name), { sheetId: range.getGridId(), row: range.getRow(), column: range.getColumn(), numRows: range.getNumRows(), numColumns: range.getNumColumns() });
      },
      getActiveRange: () => makeRange(call('ss.activeRange') as RangeDescriptor),
      getActiveCell: () => {
        const r = call('ss.activeRange') as RangeDescriptor;
        return makeRange({ ...r, numRows: 1, numColumns: 1 });
      },
      getCurrentCell: () => {
        const r = call('ss.activeRange') as RangeDescriptor;
        return makeRange({ ...r, numRows: 1, numColumns: 1 });
      },
      toast: (message: string, title?: string) => {
        guard('ui', 'Spreadsheet.toast');
        call('ss.toast', String(message), title === undefined ? undefined : String(title));
      },
    });
    return ss;
  };

  // ------------------------------------------------------------------ Ui, HtmlService

  const htmlOutput = (initial: string) => {
    let content = initial;
    let title = 'Apps Script application';
    let width: number | undefined;
    let height: number | undefined;
    const out: Record<string, unknown> = api('HtmlOutput', {
      getContent: () => content,
      setContent: (html: string) => ((content = String(html)), out),
      append: (html: string) => ((content += String(html)), out),
      appendUntrusted: (text: string) => ((content += String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')), out),
      setTitle: (t: string) => ((title = String(t)), out),
      getTitle: () => title,
      setWidth: (w: number) => ((width = Number(w)), out),
      getWidth: () => width ?? null,
      setHeight: (h: number) => ((height = Number(h)), out),
      getHeight: () => height ?? null,
      setSandboxMode: () => out,
      setXFrameOptionsMode: () => out,
      addMetaTag: () => out,
      setFaviconUrl: () => out,
      __snapshot: () => ({ title, width, height, html: content }),
    });
    return out;
  };
  const HtmlService = api('HtmlService', {
    createHtmlOutput: (html?: string) => (guard('html', 'HtmlService.createHtmlOutput'), htmlOutput(html === undefined ? '' : String(html))),
    createHtmlOutputFromFile: (name: string) => (guard('html', 'HtmlService.createHtmlOutputFromFile'), htmlOutput(call('html.file', String(name)) as string)),
    SandboxMode: { IFRAME: 'IFRAME', NATIVE: 'NATIVE', EMULATED: 'EMULATED' },
    XFrameOptionsMode: { ALLOWALL: 'ALLOWALL', DEFAULT: 'DEFAULT' },
  });

  const snapshotOf = (output: unknown) => {
    const snap = (output as { __snapshot?: () => { title: string; width?: number; html: string } }).__snapshot;
    if (typeof snap !== 'function') throw realmError('Exception', 'Invalid argument: userInterface');
    return snap();
  };

  const makeMenu = (title: string, addon: boolean) => {
    const record: { title: string; addon: boolean; items: unknown[] } = { title, addon, items: [] };
    const menu: Record<string, unknown> = api('Menu', {
      addItem: (caption: string, functionName: string) => (record.items.push({ caption: String(caption), functionName: String(functionName) }), menu),
      addSeparator: () => (record.items.push({ separator: true }), menu),
      addSubMenu: (sub: { __record: unknown }) => (record.items.push({ subMenu: sub.__record }), menu),
      addToUi: () => {
        call('ui.menu', record);
      },
      __record: record,
    });
    return menu;
  };
  const Button = { OK: 'OK', CANCEL: 'CANCEL', YES: 'YES', NO: 'NO', CLOSE: 'CLOSE' };
  const ui = api('Ui', {
    createMenu: (caption: string) => (guard('menu', 'Ui.createMenu'), makeMenu(String(caption), false)),
    createAddonMenu: () => (guard('menu', 'Ui.createAddonMenu'), makeMenu(settings.addOnName, true)),
    showSidebar: (output: unknown) => {
      guard('sidebar', 'Ui.showSidebar');
      call('ui.sidebar', snapshotOf(output));
    },
    showModalDialog: (output: unknown, title: string) => {
      guard('sidebar', 'Ui.showModalDialog');
      call('ui.dialog', { title: String(title), html: snapshotOf(output).html, modal: true });
    },
    showModelessDialog: (output: unknown, title: string) => {
      guard('sidebar', 'Ui.showModelessDialog');
      call('ui.dialog', { title: String(title), html: snapshotOf(output).html, modal: false });
    },
    alert: (a: string, b?: string) => {
      guard('ui', 'Ui.alert');
      if (b === undefined || typeof b !== 'string') call('ui.alert', undefined, String(a));
      else call('ui.alert', String(a), String(b));
      return Button.OK;
    },
    Button,
    ButtonSet: { OK: 'OK', OK_CANCEL: 'OK_CANCEL', YES_NO: 'YES_NO', YES_NO_CANCEL: 'YES_NO_CANCEL' },
  });

  const SpreadsheetApp = api('SpreadsheetApp', {
    getActiveSpreadsheet: () => (guard('docRead', 'SpreadsheetApp.getActiveSpreadsheet'), spreadsheet()),
    getActive: () => (guard('docRead', 'SpreadsheetApp.getActive'), spreadsheet()),
    getActiveSheet: () => (guard('docRead', 'SpreadsheetApp.getActiveSheet'), makeSheet(call('ss.activeSheet') as number)),
    getActiveRange: () => (guard('docRead', 'SpreadsheetApp.getActiveRange'), makeRange(call('ss.activeRange') as RangeDescriptor)),
    getUi: () => (guard('menu', 'SpreadsheetApp.getUi'), ui),
    flush: () => undefined,
    openById: () => deny('SpreadsheetApp.openById'),
    openByUrl: () => deny('SpreadsheetApp.openByUrl'),
    create: () => deny('SpreadsheetApp.create'),
  });

  // ------------------------------------------------------------------ ScriptApp, Session, MailApp

  const AuthMode = { NONE: 'NONE', LIMITED: 'LIMITED', FULL: 'FULL', CUSTOM_FUNCTION: 'CUSTOM_FUNCTION' };
  const EventType = { CLOCK: 'CLOCK', ON_OPEN: 'ON_OPEN', ON_EDIT: 'ON_EDIT', ON_CHANGE: 'ON_CHANGE', ON_FORM_SUBMIT: 'ON_FORM_SUBMIT' };
  const WeekDay = { MONDAY: 1, TUESDAY: 2, WEDNESDAY: 3, THURSDAY: 4, FRIDAY: 5, SATURDAY: 6, SUNDAY: 7 };
  type TriggerInfo = { id: string; handlerFunction: string; eventType: string; documentId: string };
  const makeTrigger = (t: TriggerInfo) =>
    api('Trigger', {
      getUniqueId: () => t.id,
      getHandlerFunction: () => t.handlerFunction,
      getEventType: () => t.eventType,
      getTriggerSource: () => (t.eventType === 'CLOCK' ? 'CLOCK' : 'SPREADSHEETS'),
      getTriggerSourceId: () => (t.eventType === 'CLOCK' ? null : t.documentId),
    });
  const newTrigger = (handlerFunction: string) => {
    const spec: Record<string, unknown> = { handlerFunction: String(handlerFunction) };
    const create = () => makeTrigger(call('triggers.create', spec) as TriggerInfo);
    const clockBuilder: Record<string, unknown> = api('ClockTriggerBuilder', {
      everyMinutes: (n: number) => ((spec.everyMinutes = Number(n)), clockBuilder),
      everyHours: (n: number) => ((spec.everyHours = Number(n)), clockBuilder),
      everyDays: (n: number) => ((spec.everyDays = Number(n)), clockBuilder),
      everyWeeks: (n: number) => ((spec.everyWeeks = Number(n)), clockBuilder),
      atHour: (h: number) => ((spec.atHour = Number(h)), clockBuilder),
      nearMinute: () => clockBuilder,
      onWeekDay: (d: number) => ((spec.onWeekDay = d), clockBuilder),
      inTimezone: () => clockBuilder,
      at: (date: Date) => ((spec.at = new Date((date as Date).getTime()).getTime()), clockBuilder),
      after: (ms: number) => ((spec.after = Number(ms)), clockBuilder),
      create,
    });
    const sheetBuilder: Record<string, unknown> = api('SpreadsheetTriggerBuilder', {
      onOpen: () => ((spec.eventType = 'ON_OPEN'), sheetBuilder),
      onEdit: () => ((spec.eventType = 'ON_EDIT'), sheetBuilder),
      onChange: () => ((spec.eventType = 'ON_CHANGE'), sheetBuilder),
      onFormSubmit: () => ((spec.eventType = 'ON_FORM_SUBMIT'), sheetBuilder),
      create,
    });
    return api('TriggerBuilder', {
      timeBased: () => ((spec.eventType = 'CLOCK'), clockBuilder),
      forSpreadsheet: () => sheetBuilder,
    });
  };
  const ScriptApp = api('ScriptApp', {
    AuthMode,
    EventType,
    WeekDay,
    TriggerSource: { SPREADSHEETS: 'SPREADSHEETS', CLOCK: 'CLOCK' },
    AuthorizationStatus: { REQUIRED: 'REQUIRED', NOT_REQUIRED: 'NOT_REQUIRED' },
    newTrigger: (fn: string) => (guard('triggers', 'ScriptApp.newTrigger'), newTrigger(fn)),
    getUserTriggers: () => (guard('triggers', 'ScriptApp.getUserTriggers'), (call('triggers.list', 'user') as TriggerInfo[]).map(makeTrigger)),
    getProjectTriggers: () => (guard('triggers', 'ScriptApp.getProjectTriggers'), (call('triggers.list', 'project') as TriggerInfo[]).map(makeTrigger)),
    deleteTrigger: (trigger: { getUniqueId(): string }) => {
      guard('triggers', 'ScriptApp.deleteTrigger');
      call('triggers.delete', trigger.getUniqueId());
    },
    getOAuthToken: () => (guard('session', 'ScriptApp.getOAuthToken'), 'gas-host-oauth-token'),
    getScriptId: () => 'gas-host-script',
    getAuthorizationInfo: () => api('AuthorizationInfo', { getAuthorizationStatus: () => 'NOT_REQUIRED', getAuthorizationUrl: () => null }),
  });

  const Session = api('Session', {
    getActiveUser: () => (guard('session', 'Session.getActiveUser'), makeUser(request.user)),
    getEffectiveUser: () => (guard('session', 'Session.getEffectiveUser'), makeUser(request.user)),
    getTemporaryActiveUserKey: () => (guard('session', 'Session.getTemporaryActiveUserKey'), crypto.createHash('sha1').update(request.user).digest('hex')),
    getActiveUserLocale: () => 'en',
    getScriptTimeZone: () => (call('ss.info') as { scriptTimeZone: string }).scriptTimeZone,
  });

  const MailApp = api('MailApp', {
    sendEmail: (a: unknown, subject?: string, body?: string, options?: unknown) => {
      guard('mail', 'MailApp.sendEmail');
      const message = typeof a === 'object' && a !== null ? (fromRealm(a) as Record<string, unknown>) : { to: String(a), subject, body, ...((fromRealm(options) ?? {}) as object) };
      call('mail.send', message);
    },
    getRemainingDailyQuota: () => (guard('mail', 'MailApp.getRemainingDailyQuota'), 100),
  });

  Object.assign(context, {
    SpreadsheetApp, PropertiesService, CacheService, LockService, UrlFetchApp, ScriptApp, HtmlService,
    Session, Utilities, Logger, MailApp, Charts, console: consoleFacade,
  });

  // ------------------------------------------------------------------ run

  const outcome = (partial: Partial<ExecutionOutcome>): ExecutionOutcome => {
    if (Object.keys(localCounts).length > 0) {
      try {
        backend.call('counts', localCounts);
      } catch {
        // Counting must never change an execution's result.
      }
    }
    return { ok: false, logText: logLines.join('\n'), ...partial };
  };
  const failure = (error: unknown): ExecutionOutcome => {
    const e = error as { name?: string; message?: string; stack?: string; code?: string };
    if (expired || error instanceof ExceededTime || e?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT' || e?.message === EXCEEDED_MESSAGE) {
      return outcome({ ok: false, exceededTime: true, error: { name: 'Error', message: EXCEEDED_MESSAGE } });
    }
    if (e && typeof e === 'object' && typeof e.message === 'string') return outcome({ ok: false, error: { name: e.name ?? 'Error', message: e.message, stack: e.stack } });
    return outcome({ ok: false, error: { name: 'Error', message: String(error) } });
  };
  // A real-time backstop for scripts that loop without calling any service.
  const backstopMs = () => Math.max(1, request.deadline - clock.now()) + (clock.virtual ? 60_000 : 1_000);

  try {
    script.runInContext(context, { timeout: backstopMs() });
  } catch (error) {
    return failure(error);
  }
  if (request.functionName === undefined) return expired ? failure(new ExceededTime()) : outcome({ ok: true });
  const globals = context as Record<string, unknown>;
  let fn = globals[request.functionName];
  if (typeof fn !== 'function' && request.caseInsensitive) {
    // Sheets upper-cases what the user types (=myfn() shows as =MYFN()) and still finds myFn.
    const match = Object.keys(globals).find((k) => k.toUpperCase() === request.functionName!.toUpperCase() && typeof globals[k] === 'function');
    if (match) fn = globals[match];
  }
  if (typeof fn !== 'function') {
    return outcome({ ok: false, functionNotFound: true, error: { name: 'Exception', message: `Script function not found: ${request.functionName}` } });
  }
  const realmArgs = request.args.map(toRealm);
  try {
    (context as Record<string, unknown>).__gasHostInvoke__ = () => (fn as (...a: unknown[]) => unknown).apply(undefined, realmArgs);
    const value = vm.runInContext('__gasHostInvoke__()', context, { timeout: backstopMs() });
    if (expired || clock.now() > request.deadline) return failure(new ExceededTime());
    return outcome({ ok: true, value: fromRealm(value) });
  } catch (error) {
    return failure(error);
  } finally {
    delete (context as Record<string, unknown>).__gasHostInvoke__;
  }
}

export { columnToLetters };
