import { createGasHost } from '../../../dev/gas-host';
import { startTestHttpServer, type TestHttpServer } from '../../support/gas-http-server';

const BUNDLE = `
function get(url, params) { var r = UrlFetchApp.fetch(url, params); return [r.getResponseCode(), r.getContentText(), r.getHeaders(), r.getAllHeaders()['Set-Cookie'] || null, r.getBlob().getDataAsString()]; }
function status(url, params) { return UrlFetchApp.fetch(url, params).getResponseCode(); }
function all(urls) { return UrlFetchApp.fetchAll(urls.map(function (u) { return { url: u, muteHttpExceptions: true }; })).map(function (r) { return r.getContentText(); }); }
function post(url, payload) { return JSON.parse(UrlFetchApp.fetch(url, { method: 'post', payload: payload }).getContentText()); }
function virtualTimes(urls) {
  var before = Date.now();
  var answers = UrlFetchApp.fetchAll(urls.map(function (u) { return { url: u }; }));
  return { before: before, after: Date.now(), sent: answers.map(function (r) { return r.getContentText(); }), headers: answers.map(function (r) { return Object.keys(r.getAllHeaders()); }) };
}
function text(url, charset) { var r = UrlFetchApp.fetch(url); return charset ? r.getContentText(charset) : r.getContentText(); }
function postJson(url) { return JSON.parse(UrlFetchApp.fetch(url, { method: 'post', contentType: 'application/json', payload: JSON.stringify({ a: 1 }), headers: { Authorization: 'Bearer t' } }).getContentText()); }
`;

describe('UrlFetchApp', () => {
  let server: TestHttpServer;
  let hostName: string;
  beforeAll(async () => {
    server = await startTestHttpServer();
    hostName = new URL(server.baseUrl).host;
  });
  afterAll(() => server.close());

  it('fetches synchronously and exposes code, text, headers (Title-Case) and blob', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    const [code, text, headers, cookies, blobText] = host.call('get', [`${server.baseUrl}/status/200`]) as [
      number,
      string,
      Record<string, string>,
      unknown,
      string,
    ];
    expect(code).toBe(200);
    expect(text).toBe('status 200');
    expect(headers['Content-Type']).toBe('text/plain');
    expect(headers['X-Test-Header']).toBe('yes');
    expect(cookies).toBeNull();
    expect(blobText).toBe('status 200');
    const echoed = host.call('get', [`${server.baseUrl}/echo`]) as unknown[];
    expect(echoed[3]).toEqual(['a=1', 'b=2']);
  });

  it("reads a body in the charset named, else in the Content-Type's, else as ISO-8859-1 (UNCONFIRMED default)", () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(host.call('text', [`${server.baseUrl}/utf8/utf-8`])).toBe('café ü');
    // No charset anywhere: the bytes of UTF-8 read one by one, as a script that names none must expect.
    expect(host.call('text', [`${server.baseUrl}/utf8/none`])).toBe('cafÃ© Ã¼');
    expect(host.call('text', [`${server.baseUrl}/utf8/none`, 'UTF-8'])).toBe('café ü');
    expect(host.call('text', [`${server.baseUrl}/utf8/utf-8`, 'ISO-8859-1'])).toBe('cafÃ© Ã¼');
  });

  it('throws the real text for an unmuted non-2xx response', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(() => host.call('status', [`${server.baseUrl}/status/404`])).toThrow(
      `Request failed for ${server.baseUrl} returned code 404. Truncated server response: status 404 (use muteHttpExceptions option to examine full response)`,
    );
    expect(host.call('status', [`${server.baseUrl}/status/404`, { muteHttpExceptions: true }])).toBe(404);
  });

  it('runs fetchAll in parallel with responses in request order', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    const started = Date.now();
    expect(host.call('all', [[`${server.baseUrl}/slow/300`, `${server.baseUrl}/slow/100`, `${server.baseUrl}/status/500`]])).toEqual([
      'slow 300',
      'slow 100',
      'status 500',
    ]);
    expect(Date.now() - started).toBeLessThan(600);
    expect(host.counters['UrlFetchApp.fetchAll']).toBe(1);
    expect(host.counters['http.requests']).toBe(3);
  });

  it('form-encodes an object payload and sends JSON with contentType', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    const form = host.call('post', [`${server.baseUrl}/echo`, { user: 'a b', n: 1 }]) as {
      body: string;
      headers: Record<string, string>;
      method: string;
    };
    expect(form.method).toBe('POST');
    expect(form.body).toBe('user=a%20b&n=1');
    expect(form.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const json = host.call('postJson', [`${server.baseUrl}/echo`]) as { body: string; headers: Record<string, string> };
    expect(json.body).toBe('{"a":1}');
    expect(json.headers['content-type']).toBe('application/json');
    expect(json.headers.authorization).toBe('Bearer t');
  });

  it('keeps a per-host log of requests', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('status', [`${server.baseUrl}/status/204`]);
    expect(host.requestsTo(hostName)).toEqual([
      expect.objectContaining({ method: 'GET', url: `${server.baseUrl}/status/204`, status: 204 }),
    ]);
  });

  it('rejects URLs over 2 KB', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(() => host.call('status', [`${server.baseUrl}/echo?q=${'x'.repeat(2100)}`])).toThrow('Limit Exceeded: URLFetch URL Length.');
  });

  it('refuses a payload over the quotas page\'s "URL Fetch POST size: 50 MB / call", before sending it', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(() => host.call('post', [`${server.baseUrl}/echo`, 'x'.repeat(50_000_001)])).toThrow('Limit Exceeded: URLFetch POST Size.');
    expect(host.requestsTo(hostName)).toEqual([]);
    host.call('post', [`${server.baseUrl}/echo`, 'x'.repeat(1_000)]);
    expect(host.requestsTo(hostName)).toHaveLength(1);
  });

  it('reports an unreachable address and a timeout with Apps Script wording', () => {
    const host = createGasHost({ fetchTimeoutMs: 200 });
    host.load(BUNDLE);
    expect(() => host.call('status', ['http://127.0.0.1:1/x'])).toThrow('Address unavailable: http://127.0.0.1:1/x');
    expect(() => host.call('status', [`${server.baseUrl}/slow/1500`])).toThrow(`Timeout: ${server.baseUrl}/slow/1500`);
  });

  describe('on a virtual clock', () => {
    const START = Date.UTC(2026, 10, 20, 12);

    it('sends each request with its virtual send time and moves the clock to the latest answer a server announces, hiding that header', () => {
      const moves: number[] = [];
      const host = createGasHost({ clock: 'virtual', startTime: START, onTimeAdvance: (ms) => moves.push(ms) });
      host.load(BUNDLE);
      const result = host.call('virtualTimes', [
        [`${server.baseUrl}/virtual/250`, `${server.baseUrl}/virtual/400`, `${server.baseUrl}/virtual/100`],
      ]) as { before: number; after: number; sent: string[]; headers: string[][] };
      expect(result.sent).toEqual([String(START), String(START), String(START)]);
      // Parallel requests overlap: the batch took as long as its slowest answer, not the sum.
      expect(result.after - result.before).toBe(400);
      expect(moves).toEqual([400]);
      for (const names of result.headers) expect(names.map((n) => n.toLowerCase())).not.toContain('x-virtual-answer-time');
      // What the script sent is logged as it sent it.
      expect(host.fetchLog.every((f) => !('x-virtual-send-time' in f.headers))).toBe(true);
    });

    it('moves the shared clock for executions in workers too, and a server that says nothing leaves it alone', async () => {
      const host = createGasHost({ clock: 'virtual', startTime: START });
      host.load(BUNDLE);
      const [outcome] = await host.callConcurrently([{ functionName: 'virtualTimes', args: [[`${server.baseUrl}/virtual/300`]] }]);
      expect((outcome!.value as { after: number; before: number }).after - (outcome!.value as { before: number }).before).toBe(300);
      expect(host.clock.now()).toBe(START + 300);
      host.call('all', [[`${server.baseUrl}/status/200`]]);
      expect(host.clock.now()).toBe(START + 300);
      await host.close();
    });
  });
});
