import { encodeBase64 } from '../../../../src/core/util/base64';

describe('encodeBase64', () => {
  it.each(['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar', 'user:pa55word', 'jürgen:päss', 'emoji 🙂 ok', 'ＡＢＣ'])(
    'encodes %p exactly as Buffer does',
    (text) => {
      expect(encodeBase64(text)).toBe(Buffer.from(text, 'utf8').toString('base64'));
    },
  );
});
