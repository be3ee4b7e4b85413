/**
 * The rule behind "a custom function finishes or fails clearly within 30 s", in the core with a
 * manual clock: a transport call cannot be cut short (UrlFetchApp has no timeout), so no request,
 * batch or retry starts when, judged by the slowest request so far, its answer would come after
 * the deadline. The failure is a sentence that says Engage is slow, not Apps Script's bare
 * "Exceeded maximum execution time".
 */
import { GatewayTimeoutError, SlowServiceError } from '../../src/core/errors';
import { RequestSender } from '../../src/core/api/transport/request-sender';
import { DEFAULT_RETRY_POLICY } from '../../src/core/api/transport/retry-policy';
import { errorResponse, FakeTransport, jsonResponse, ManualClock, ManualSleeper } from '../support/fakes';

function setup() {
  const clock = new ManualClock();
  const sleeper = new ManualSleeper(clock);
  const transport = new FakeTransport();
  const sender = new RequestSender({ transport, clock, sleeper, random: () => 0.5, policy: DEFAULT_RETRY_POLICY });
  const options = { operation: 'GET /reports/main', deadlineAtMs: clock.now() + 25_000, retry: true };
  /** Answers after `latencyMs` of the manual clock. */
  const slow =
    (latencyMs: number, status = 200) =>
    () => {
      clock.advance(latencyMs);
      return status === 200
        ? jsonResponse(200, { items: [] }, { 'x-traceid': 'tr-slow' })
        : errorResponse(status, 'Request timed out', 'tr-504');
    };
  return { clock, transport, sender, options, slow };
}
const req = (n: number) => ({ url: `https://x.test/r?n=${n}`, method: 'get' as const });

describe('a slow Engage', () => {
  it('still sends every request that fits: three 8-second answers in a row within 25 seconds', () => {
    const { sender, transport, options, slow } = setup();
    transport.setHandler(slow(8000));
    for (let n = 1; n <= 3; n++) sender.send(req(n), options);
    expect(transport.requestCount).toBe(3);
    expect(sender.slowestRequestMs).toBe(8000);
  });

  it('does not start a batch that a 14-second first page shows cannot be back in time, and says why', () => {
    const { sender, transport, options, slow } = setup();
    transport.setHandler(slow(14_000));
    sender.send(req(1), options);
    let error: unknown;
    try {
      sender.sendAll([req(2), req(3)], options);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SlowServiceError);
    expect((error as Error).message).toBe(
      'Engage is answering slowly (a request took 14.0 s, and 11.0 s were left), so the rest of GET /reports/main was not asked for: ' +
        'try again in a few minutes, or ask for fewer rows (a formula has 30 seconds, Run to sheet in the sidebar 5 minutes).',
    );
    expect(transport.requestCount).toBe(1);
  });

  it('does not retry a 504 that took 13 seconds when a second one would end after the deadline: the 504 and its trace ID are the message', () => {
    const { sender, transport, options, slow } = setup();
    transport.setHandler(slow(13_000, 504));
    let error: unknown;
    try {
      sender.send(req(1), options);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GatewayTimeoutError);
    expect((error as Error).message).toMatch(/took too long to answer.*\[trace ID tr-504\]/);
    expect(transport.requestCount).toBe(1);
  });

  it('retries a 504 that came back quickly', () => {
    const { sender, transport, options, slow } = setup();
    transport.enqueue(errorResponse(504, 'Request timed out', 'tr-1'));
    transport.setHandler(slow(100));
    expect(sender.send(req(1), options).status).toBe(200);
    expect(transport.requestCount).toBe(2);
  });
});
