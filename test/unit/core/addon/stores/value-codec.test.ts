import { decodeValues, encodeValues } from '../../../../../src/core/addon/stores/value-codec';

describe('encodeValues and decodeValues', () => {
  it('keep dates as dates and everything else as it was', () => {
    const day = new Date(Date.UTC(2026, 10, 1, -1));
    const values = [
      ['day', 'revenue', 'name'],
      [day, 12.5, 'x'],
      ['Total', 3, ''],
    ];
    const decoded = decodeValues(encodeValues(values));
    expect(decoded).toEqual(values);
    expect(decoded[1]![0]).toBeInstanceOf(Date);
    expect(values[1]![0]).toBe(day);
  });
});
