/**
 * Blob: bytes with a content type and a name, as Utilities, UrlFetchApp's responses and payloads use
 * them. The host keeps the bytes behind each Blob it hands out, so a Blob given back (gzip, ungzip,
 * newBlob, a payload) is read without copying it through the script's realm.
 */
import { bytesToBuffer, type Facade, type FacadeKit } from './kit';

export interface Blobs {
  make(bytes: Buffer, contentType: string | null, name: string | null): Facade;
  /** The bytes of a BlobSource: a Blob of this execution, or anything whose getBlob() gives one. */
  bytesOf(source: unknown, method: string): Buffer;
}

export function blobs(kit: FacadeKit): Blobs {
  const blobBytes = new WeakMap<object, () => Buffer>();
  const make = (bytes: Buffer, contentType: string | null, name: string | null): Facade => {
    let data = bytes;
    let type = contentType;
    let blobName = name;
    const blob: Facade = kit.api('Blob', {
      getDataAsString: (charset?: string) => data.toString(charset && /^(iso-8859-1|latin1)$/i.test(charset) ? 'latin1' : 'utf8'),
      getBytes: () => kit.toSignedBytes(data),
      setBytes: (b: unknown) => {
        data = bytesToBuffer(b);
        return blob;
      },
      setDataFromString: (s: string) => {
        data = Buffer.from(String(s), 'utf8');
        return blob;
      },
      getContentType: () => type,
      setContentType: (t: string) => {
        type = t;
        return blob;
      },
      getName: () => blobName,
      setName: (n: string) => {
        blobName = n;
        return blob;
      },
      copyBlob: () => make(Buffer.from(data), type, blobName),
      getAs: () => blob,
      isGoogleType: () => false,
    });
    blobBytes.set(blob, () => data);
    return blob;
  };
  const bytesOf = (source: unknown, method: string): Buffer => {
    const direct = source !== null && typeof source === 'object' ? blobBytes.get(source) : undefined;
    if (direct) return direct();
    const viaGetBlob = (source as { getBlob?: () => unknown } | null)?.getBlob;
    const blob = typeof viaGetBlob === 'function' ? viaGetBlob.call(source) : undefined;
    const bytes = blob !== null && typeof blob === 'object' ? blobBytes.get(blob) : undefined;
    if (!bytes) throw kit.realmError('Exception', `Invalid argument: blob (${method} takes a Blob)`);
    return bytes();
  };
  return { make, bytesOf };
}
