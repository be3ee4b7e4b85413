/**
 * The session's sign-in rules with counting fakes: a pasted token is checked by the same rule the
 * API client and a login answer are, and nothing is stored or sent for a token that breaks it.
 */
import { EngageSession } from '../../../../../src/core/addon/session/session';
import { parseLoginToken } from '../../../../../src/core/api/responses/responses';
import { ResponseFormatError, ValidationError } from '../../../../../src/core/errors';
import { FakeCache, FakeLock, FakeStore, FakeTransport, jsonResponse, ManualClock, ManualSleeper } from '../../../../support/fakes';
import { harness } from '../../api/client/harness';

const BASE = 'https://api.example.com/engage/v2';

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
  const userStore = new FakeStore();
  const transport = new FakeTransport(() => jsonResponse(200, []));
  const session = new EngageSession({
    transport,
    userStore,
    userLock: new FakeLock(),
    documentCache: new FakeCache(clock),
    documentLock: new FakeLock(),
    clock,
    sleeper: new ManualSleeper(clock),
    random: () => 0.5,
    timeZone: 'Europe/Berlin',
  });
  userStore.set('engage.settings', JSON.stringify({ reportingBaseUrl: BASE }));
  return { session, userStore, transport };
}

describe('EngageSession.useToken', () => {
  it('refuses a pasted token with control characters or non-ASCII letters', () => {
    const { session } = setup();
    for (const token of ['abc\u0007def', 'tökén']) {
      expect(() => session.useToken(token)).toThrow(/^token: may hold only printable ASCII characters/);
    }
  });

  it('refuses exactly the tokens the API client refuses, with the same message, and stores none of them', () => {
    const { session, userStore, transport } = setup();
    const { client } = harness(undefined, { token: undefined });
    const bad = ['', '   ', 'two words', 'tab\there', 'abc\u0007def', 'tökén', 't'.repeat(4097)];
    for (const token of bad) {
      const fromSession = messageOf(() => session.useToken(token));
      expect(fromSession).toMatch(/^token: /);
      expect(messageOf(() => client.setToken(token))).toBe(fromSession);
    }
    expect(userStore.get('engage.token')).toBeNull();
    expect(transport.requestCount).toBe(0);
    session.useToken(` ${'t'.repeat(4096)} `);
    client.setToken(` ${'t'.repeat(4096)} `);
    expect(JSON.parse(userStore.get('engage.token')!).token).toBe(client.token);
  });

  it('takes from a login answer only a token that meets the same rule', () => {
    expect(parseLoginToken(JSON.stringify({ 'SVC-TOKEN-V1': ' fresh-token ' }))).toBe('fresh-token');
    for (const token of ['two words', 'tökén', 't'.repeat(4097)]) {
      expect(() => parseLoginToken(JSON.stringify({ 'SVC-TOKEN-V1': token }))).toThrow(ResponseFormatError);
    }
  });
});

function messageOf(work: () => unknown): string {
  try {
    work();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as Error).message;
  }
  throw new Error('nothing was thrown');
}
