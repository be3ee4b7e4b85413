/**
 * Utilities' Blob and compression methods as Apps Script has them: bytes are Java bytes (-128 to 127),
 * gzip takes a Blob and gives a Blob of real gzip data, and text survives a gzip, base64 and back.
 */
import zlib from 'node:zlib';
import { createGasHost } from '../../../dev/gas-host';

const BUNDLE = `
function roundTrip(text) {
  var packed = Utilities.base64Encode(Utilities.gzip(Utilities.newBlob(text)).getBytes());
  var unpacked = Utilities.ungzip(Utilities.newBlob(Utilities.base64Decode(packed), 'application/x-gzip')).getDataAsString();
  return [packed, unpacked];
}
function blobFacts() {
  var blob = Utilities.newBlob('é€', 'text/plain', 'a.txt');
  var gz = Utilities.gzip(blob, 'a.txt.gz');
  var bytes = blob.getBytes();
  return [bytes, Array.isArray(bytes), gz.getContentType(), gz.getName(), Utilities.gzip(blob).getName(), blob.getName(), blob.getContentType()];
}
function ungzipText(b64) { return Utilities.ungzip(Utilities.newBlob(Utilities.base64Decode(b64))).getDataAsString(); }
function gzipString() { return Utilities.gzip('not a blob'); }
`;

describe('Utilities blobs and gzip', () => {
  const host = createGasHost();
  host.load(BUNDLE);

  it('round-trips text through gzip and base64, and writes real gzip data', () => {
    const text = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ['2026-11-01', `Country ${i % 40}`, i * 1.5, 'é€']));
    const [packed, unpacked] = host.call('roundTrip', [text]) as [string, string];
    expect(unpacked).toBe(text);
    expect(packed).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(zlib.gunzipSync(Buffer.from(packed, 'base64')).toString('utf8')).toBe(text);
    expect(packed.length).toBeLessThan(text.length / 3);
  });

  it('hands out bytes as signed Java bytes and gzip blobs as application/x-gzip', () => {
    const [bytes, isArray, type, name, unnamed, blobName, blobType] = host.call('blobFacts') as [
      number[],
      boolean,
      string,
      string,
      string | null,
      string,
      string,
    ];
    expect(bytes).toEqual([-61, -87, -30, -126, -84]);
    expect(isArray).toBe(true);
    expect(type).toBe('application/x-gzip');
    expect(name).toBe('a.txt.gz');
    expect(unnamed).toBeNull();
    expect([blobName, blobType]).toEqual(['a.txt', 'text/plain']);
  });

  it('reads gzip data made elsewhere, and refuses what is not gzip or not a Blob', () => {
    expect(host.call('ungzipText', [zlib.gzipSync('made by zlib').toString('base64')])).toBe('made by zlib');
    expect(() => host.call('ungzipText', [Buffer.from('plain text').toString('base64')])).toThrow('Could not decompress gzip data.');
    expect(() => host.call('gzipString')).toThrow(/Invalid argument: blob/);
  });
});
