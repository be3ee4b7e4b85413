/**
 * Utilities: sleep on the host clock (bounded by the execution's deadline), base64, gzip, digests
 * and signatures, UUIDs and formatDate. Bytes are Java bytes, a plain Array of numbers from -128 to 127.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { Blobs } from './blob';
import { bytesToBuffer, fromRealm, isDate, type FacadeKit } from './kit';
import { wallTime } from '../cells/wall-time';

/** Apps Script's gzip blobs carry this content type. */
const GZIP_CONTENT_TYPE = 'application/x-gzip';
/** Utilities.sleep's longest wait: 5 minutes. */
const MAX_SLEEP_MS = 300000;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Utilities.formatDate: the common SimpleDateFormat letters, evaluated in `timeZone`. */
export function formatDate(date: Date, timeZone: string, pattern: string): string {
  const { year, month, day, hour, minute, second, weekday, offsetMs } = wallTime(date.getTime(), timeZone);
  const offsetMinutes = Math.round(offsetMs / 60000);
  const pad = (n: number, width: number) => String(Math.abs(n)).padStart(width, '0');
  const offset = (colon: boolean) =>
    `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offsetMinutes) / 60), 2)}${colon ? ':' : ''}${pad(Math.abs(offsetMinutes) % 60, 2)}`;
  return pattern.replace(/'([^']*)'|y+|M+|d+|H+|h+|m+|s+|S+|E+|a+|Z+|X+|u+/g, (token, literal: string | undefined) => {
    if (literal !== undefined) return literal === '' ? "'" : literal;
    const n = token.length;
    switch (token[0]) {
      case 'y':
        return n === 2 ? pad(year % 100, 2) : pad(year, n);
      case 'M':
        return n >= 4 ? MONTHS[month - 1]! : n === 3 ? MONTHS[month - 1]!.slice(0, 3) : pad(month, n);
      case 'd':
        return pad(day, n);
      case 'H':
        return pad(hour, n);
      case 'h':
        return pad(hour % 12 === 0 ? 12 : hour % 12, n);
      case 'm':
        return pad(minute, n);
      case 's':
        return pad(second, n);
      case 'S':
        return pad(date.getUTCMilliseconds(), n);
      case 'E':
        return n >= 4 ? DAYS[weekday]! : DAYS[weekday]!.slice(0, 3);
      case 'u':
        return String(weekday === 0 ? 7 : weekday);
      case 'a':
        return hour < 12 ? 'AM' : 'PM';
      case 'Z':
        return offset(false);
      case 'X':
        return offsetMinutes === 0 ? 'Z' : offset(n >= 3);
      default:
        return token;
    }
  });
}

export function utilitiesService(kit: FacadeKit, blobs: Blobs) {
  const { clock, request } = kit;
  return kit.api('Utilities', {
    sleep: (ms: number) => {
      kit.guard('utilities', 'Utilities.sleep');
      const wanted = Number(ms);
      if (!(wanted >= 0) || wanted > MAX_SLEEP_MS) throw kit.realmError('Exception', `Invalid argument: milliseconds`);
      if (clock.virtual) clock.advance(wanted);
      else {
        const remaining = request.deadline - clock.now();
        clock.sleep(Math.min(wanted, Math.max(0, remaining) + 1));
      }
    },
    base64Encode: (data: unknown) => bytesToBuffer(data).toString('base64'),
    base64EncodeWebSafe: (data: unknown) => bytesToBuffer(data).toString('base64').replace(/\+/g, '-').replace(/\//g, '_'),
    base64Decode: (text: string) => kit.toSignedBytes(Buffer.from(String(text), 'base64')),
    base64DecodeWebSafe: (text: string) => kit.toSignedBytes(Buffer.from(String(text).replace(/-/g, '+').replace(/_/g, '/'), 'base64')),
    newBlob: (data?: unknown, contentType?: string, name?: string) =>
      blobs.make(data === undefined ? Buffer.alloc(0) : bytesToBuffer(data), contentType ?? null, name ?? null),
    gzip: (source: unknown, name?: string) =>
      blobs.make(zlib.gzipSync(blobs.bytesOf(source, 'Utilities.gzip')), GZIP_CONTENT_TYPE, name === undefined ? null : String(name)),
    ungzip: (source: unknown) => {
      const bytes = blobs.bytesOf(source, 'Utilities.ungzip');
      try {
        return blobs.make(zlib.gunzipSync(bytes), null, null);
      } catch {
        throw kit.realmError('Exception', 'Could not decompress gzip data.');
      }
    },
    formatDate: (date: Date, timeZone: string, pattern: string) => {
      if (!isDate(date)) throw kit.realmError('Exception', 'Invalid argument: date');
      return formatDate(new Date(date.getTime()), String(timeZone), String(pattern));
    },
    computeDigest: (algorithm: string, value: unknown) => {
      const name = { MD5: 'md5', SHA_1: 'sha1', SHA_256: 'sha256', SHA_384: 'sha384', SHA_512: 'sha512' }[String(algorithm)] ?? 'sha256';
      return kit.toSignedBytes(
        crypto
          .createHash(name)
          .update(bytesToBuffer(fromRealm(value)))
          .digest(),
      );
    },
    computeHmacSha256Signature: (value: unknown, key: unknown) =>
      kit.toSignedBytes(
        crypto
          .createHmac('sha256', bytesToBuffer(fromRealm(key)))
          .update(bytesToBuffer(fromRealm(value)))
          .digest(),
      ),
    getUuid: () => crypto.randomUUID(),
    DigestAlgorithm: { MD5: 'MD5', SHA_1: 'SHA_1', SHA_256: 'SHA_256', SHA_384: 'SHA_384', SHA_512: 'SHA_512' },
    Charset: { UTF_8: 'UTF-8', US_ASCII: 'US-ASCII' },
  });
}
