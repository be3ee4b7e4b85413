/**
 * Reading why UrlFetchApp threw. The English messages are the ones Apps Script users report (see
 * dev/gas-host/README.md); translated ones must still be read right where the text gives a
 * language-free hint: the address itself, or the service name "urlfetch" at the end.
 */
import { failureKind } from '../../../../../src/gas/adapters/fetch/fetch-failures';

const WHITELIST = ['https://reports.example.net/engage/v2/', 'https://recs.example.net/v1/'];
const ALLOWED = 'https://reports.example.net/engage/v2/publishers';

describe('failureKind', () => {
  it.each([
    [
      'Exception: Request to https://elsewhere.example.org/engage/v2/publishers failed because the URL has not been whitelisted in the script manifest.',
      'https://elsewhere.example.org/engage/v2/publishers',
      'not-allowed',
    ],
    [
      'Request to https://elsewhere.example.org/x? failed because the URL has not been allowlisted in the script manifest.',
      'https://elsewhere.example.org/x?a=1',
      'not-allowed',
    ],
    ['Exception: Service invoked too many times for one day: urlfetch.', ALLOWED, 'daily-quota'],
    ['Service invoked too many times for one day: premium urlfetch.', ALLOWED, 'daily-quota'],
    // The wording of Google's quotas page (developers.google.com/apps-script/guides/services/quotas).
    ['Exception: Service invoked too many times: urlfetch.', ALLOWED, 'daily-quota'],
    ['Service invoked too many times: urlfetch', ALLOWED, 'daily-quota'],
    ['Exception: DNS error: https://reports.example.net/engage/v2/publishers', ALLOWED, 'dns'],
    ['Exception: Invalid argument: https://reports.example.net/engage/v2/pub lishers', ALLOWED, 'invalid-address'],
    ['Limit Exceeded: URLFetch URL Length.', ALLOWED, 'invalid-address'],
    ['Exception: Address unavailable: https://reports.example.net/engage/v2/publishers', ALLOWED, 'connection'],
    ['Exception: Timeout: https://reports.example.net/engage/v2/publishers', ALLOWED, 'connection'],
    [
      'Exception: Service invoked too many times in a short time: urlfetch. Try Utilities.sleep(1000) between calls.',
      ALLOWED,
      'connection',
    ],
  ])('reads %j as %s', (message, url, kind) => {
    expect(failureKind(message, [url], WHITELIST)).toBe(kind);
  });

  it('reads a translated daily-quota message by the service name that ends it', () => {
    // A user's report in Persian: "Service has been called too many times in one day:urlfetch."
    expect(failureKind('Exception: سرویس در طول یک روز به دفعات زیاد فراخوان شده است:urlfetch.', [ALLOWED], WHITELIST)).toBe('daily-quota');
  });

  it('takes an address outside the whitelist as refused whatever the message says', () => {
    expect(failureKind('Exception: Die Anfrage wurde abgelehnt.', ['https://elsewhere.example.org/engage/v2/publishers'], WHITELIST)).toBe(
      'not-allowed',
    );
    // One outside member refuses a whole fetchAll.
    expect(failureKind('Exception: ???', [ALLOWED, 'https://elsewhere.example.org/x'], WHITELIST)).toBe('not-allowed');
  });

  it('never takes a loopback address (the local emulator) or a script without whitelist as refused', () => {
    expect(
      failureKind('Exception: Address unavailable: http://127.0.0.1:8787/engage/v2/x', ['http://127.0.0.1:8787/engage/v2/x'], WHITELIST),
    ).toBe('connection');
    expect(failureKind('Exception: Address unavailable: https://anywhere.example/x', ['https://anywhere.example/x'], [])).toBe(
      'connection',
    );
  });
});
