import { TokenStore } from '../../../../../src/core/addon/stores/token-store';
import { FakeStore, ManualClock } from '../../../../support/fakes';

describe('TokenStore', () => {
  it('keeps a signed-in token for 30 days', () => {
    const clock = new ManualClock();
    const tokens = new TokenStore(new FakeStore(), clock);
    tokens.save('abc', 'login', 'ann');
    clock.advance(29 * 86_400_000);
    expect(tokens.load()).toMatchObject({ token: 'abc', source: 'login', username: 'ann' });
    clock.advance(86_400_000);
    expect(tokens.load()).toBeNull();
  });

  it('keeps a pasted token until it is cleared', () => {
    const clock = new ManualClock();
    const store = new FakeStore();
    const tokens = new TokenStore(store, clock);
    tokens.save('pasted', 'pasted');
    clock.advance(400 * 86_400_000);
    expect(tokens.load()!.token).toBe('pasted');
    tokens.clear();
    expect(tokens.load()).toBeNull();
    expect(store.removes).toBe(1);
  });
});
