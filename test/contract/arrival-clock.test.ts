/**
 * Contract: the emulator counts a request when it ARRIVES, as a real service does. A modelled network
 * gives each request an arrival latency and its answer a return latency; on a frozen clock they are
 * added to the request's stamp without waiting, on the real clock they are really waited, and in
 * "follow the client" mode a request is timed from the virtual send time its client puts in
 * `x-virtual-send-time`, and the answer says in `x-virtual-answer-time` when it reaches the client.
 * The rate window accepts arrivals recorded out of order.
 */
import { VIRTUAL_ANSWER_TIME_HEADER, VIRTUAL_SEND_TIME_HEADER } from '../../dev/shared/clock';
import { request, withQuery } from './contract-client';
import { DEMO_USER, MEDIUM_PUBLISHER_ID, TOKEN_HEADER, newEmulator, type EmulatorHandle } from '../support/emulator';

const START = '2026-06-15T12:00:00.000Z';
const T = Date.parse(START);

let emulator: EmulatorHandle;
let token: string;

/** A one-row report request sent at virtual time `sentAtMs` (no send time: an ordinary client). */
function reportSentAt(sentAtMs?: number) {
  const headers: Record<string, string> = { [TOKEN_HEADER]: token };
  if (sentAtMs !== undefined) headers[VIRTUAL_SEND_TIME_HEADER] = String(sentAtMs);
  return request(
    withQuery(`${emulator.baseUrl}/reports/main`, { entityId: MEDIUM_PUBLISHER_ID, fromDate: '20260601', toDate: '20260601' }),
    { headers },
  );
}

async function loggedTimes(): Promise<number[]> {
  return (await emulator.reportRequests()).map((r) => Date.parse(r.time));
}

beforeAll(async () => {
  emulator = await newEmulator();
});
beforeEach(async () => {
  await emulator.reset();
  await emulator.setClock(START, { followClient: true });
  token = await emulator.login(DEMO_USER.email, DEMO_USER.password);
  await emulator.clearRequests();
});
afterAll(async () => {
  await emulator.close();
});

describe('following a client on a virtual clock', () => {
  it('times a request from its send time plus the arrival latency, and says when the answer reaches the client', async () => {
    await emulator.setLatency({ arrival: { minMs: 120, maxMs: 120 }, return: { minMs: 80, maxMs: 80 } });
    const answer = await reportSentAt(T + 5_000);
    expect(answer.status).toBe(200);
    expect(await loggedTimes()).toEqual([T + 5_120]);
    expect(answer.headers.get(VIRTUAL_ANSWER_TIME_HEADER)).toBe(String(T + 5_200));
    // The frozen clock followed the client up to that arrival.
    expect(await emulator.now()).toBe(new Date(T + 5_120).toISOString());
  });

  it('draws each latency from its range, the same draw for the same request sent at the same time', async () => {
    await emulator.setLatency({ arrival: { minMs: 0, maxMs: 200 }, seed: 7 });
    const draws: number[] = [];
    for (let i = 0; i < 20; i++) {
      const answer = await reportSentAt(T + i * 1000);
      draws.push(Number(answer.headers.get(VIRTUAL_ANSWER_TIME_HEADER)) - (T + i * 1000));
    }
    const arrivals = (await loggedTimes()).map((t, i) => t - (T + i * 1000));
    for (const a of arrivals) expect(a).toBeGreaterThanOrEqual(0);
    for (const a of arrivals) expect(a).toBeLessThanOrEqual(200);
    expect(new Set(arrivals).size).toBeGreaterThan(5);
    for (const d of draws) expect(d).toBeLessThanOrEqual(400);
    await emulator.reset();
    await emulator.setClock(START, { followClient: true });
    await emulator.setLatency({ arrival: { minMs: 0, maxMs: 200 }, seed: 7 });
    token = await emulator.login(DEMO_USER.email, DEMO_USER.password);
    const again = await reportSentAt(T);
    expect(Number(again.headers.get(VIRTUAL_ANSWER_TIME_HEADER)) - T).toBe(draws[0]);
  });

  it('counts the 30 a minute by arrival: a request sent 60.1 s after 30 others is refused when they took longer to arrive', async () => {
    // Thirty requests sent at once take 300 ms to arrive; the next one arrives at once.
    await emulator.setLatency({ arrival: { minMs: 300, maxMs: 300 } });
    for (let i = 0; i < 30; i++) expect((await reportSentAt(T)).status).toBe(200);
    await emulator.setLatency({ arrival: { minMs: 0, maxMs: 0 } });
    // Sent 60,100 ms after them, it arrives 59,800 ms after them: the window still holds 30.
    const early = await reportSentAt(T + 60_100);
    expect(early.status).toBe(429);
    expect(early.headers.get('rate-limit-msec-left')).toBe('200');
    expect((await reportSentAt(T + 60_300)).status).toBe(200);
  });

  it('accepts arrivals recorded out of order and judges each against every arrival of its window', async () => {
    expect((await reportSentAt(T + 1_000)).status).toBe(200);
    for (let i = 0; i < 29; i++) expect((await reportSentAt(T + 2_000)).status).toBe(200);
    // Stamped before the others yet handled after them: the window it falls in already holds 30.
    const late = await reportSentAt(T + 500);
    expect(late.status).toBe(429);
    expect(late.headers.get('rate-limit-msec-left')).toBe('60500');
    // One millisecond after the first arrival leaves the window, the next request fits.
    expect((await reportSentAt(T + 60_999)).status).toBe(429);
    expect((await reportSentAt(T + 61_000)).status).toBe(200);
    expect((await loggedTimes()).filter((t, i, all) => i > 0 && t < all[i - 1]!)).toEqual([T + 500]);
  });

  it('times a request that gives no send time by its own frozen clock', async () => {
    await emulator.setLatency({ arrival: { minMs: 50, maxMs: 50 } });
    const answer = await reportSentAt();
    expect(answer.headers.get(VIRTUAL_ANSWER_TIME_HEADER)).toBeNull();
    expect(await loggedTimes()).toEqual([T + 50]);
  });
});

describe('on the real clock', () => {
  it('really waits the latencies, so no answer comes back before the arrival it was counted at', async () => {
    await emulator.setClock(START);
    await emulator.setLatency({ arrival: { minMs: 150, maxMs: 150 }, return: { minMs: 100, maxMs: 100 } });
    const before = Date.now();
    const answer = await reportSentAt(T);
    const elapsedMs = Date.now() - before;
    expect(answer.status).toBe(200);
    expect(answer.headers.get(VIRTUAL_ANSWER_TIME_HEADER)).toBeNull();
    expect(elapsedMs).toBeGreaterThanOrEqual(250);
    const [arrival] = await loggedTimes();
    // Stamped after the 150 ms it took to arrive, on a clock that kept running from START.
    expect(arrival! - T).toBeGreaterThanOrEqual(150);
  });
});
