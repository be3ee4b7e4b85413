/**
 * A deployment's addresses: the whitelist the build writes for them, and whether Apps Script lets an
 * address through it, by the rules and examples of Google's "Allowlist URLs" page.
 */
import { addressProblem, allowedByWhitelist, isLoopbackUrl, whitelistFor } from '../../../src/core/deployment';
import { describePrefixes } from '../../../src/core/util/text';

describe('whitelistFor', () => {
  it('allows everything below the reporting base and the folder of the recommendations endpoint', () => {
    expect(whitelistFor('https://reports.example.net/engage/v2', 'https://recs.example.net/v1/recommendations')).toEqual([
      'https://reports.example.net/engage/v2/',
      'https://recs.example.net/v1/',
    ]);
    expect(whitelistFor('https://reports.example.net/engage/v2/', 'https://recs.example.net/recommend?x=1')).toEqual([
      'https://reports.example.net/engage/v2/',
      'https://recs.example.net/',
    ]);
  });

  it('lists one entry when the recommendations endpoint lies below the reporting base', () => {
    expect(whitelistFor('https://api.example.net/engage/v2', 'https://api.example.net/engage/v2/recs')).toEqual([
      'https://api.example.net/engage/v2/',
    ]);
  });
});

describe("allowedByWhitelist (Google's examples)", () => {
  it.each([
    'https://example.com/foo',
    'https://example.com/foo/',
    'https://example.com/foo/bar',
    'https://example.com/foo?bar',
    'https://example.com/foo#bar',
    'HTTPS://EXAMPLE.COM/foo/bar',
  ])('prefix https://example.com/foo matches %s', (url) => {
    expect(allowedByWhitelist(url, ['https://example.com/foo'])).toBe(true);
  });

  it.each([
    'https://example.com/foobar',
    'https://example.com/Foo',
    'http://example.com/foo',
    'https://example.com.evil.net/foo',
    'https://other.example.com/foo',
  ])('prefix https://example.com/foo does not match %s', (url) => {
    expect(allowedByWhitelist(url, ['https://example.com/foo'])).toBe(false);
  });

  it('lets a leading wildcard stand for one or more subdomains, but not for none', () => {
    const prefixes = ['https://*.example.com/foo'];
    expect(allowedByWhitelist('https://subdomain.example.com/foo', prefixes)).toBe(true);
    expect(allowedByWhitelist('https://any.number.of.subdomains.example.com/foo', prefixes)).toBe(true);
    expect(allowedByWhitelist('https://subdomain.example.com/bar', prefixes)).toBe(false);
    expect(allowedByWhitelist('https://example.com/foo', prefixes)).toBe(false);
  });
});

describe('isLoopbackUrl', () => {
  it.each([
    ['http://127.0.0.1:8787/engage/v2', true],
    ['http://localhost/x', true],
    ['http://[::1]:9/x', true],
    ['https://127.0.0.2/x', true],
    ['http://127.255.255.254:8787/engage/v2', true],
    ['http://LOCALHOST:8080/x', true],
    ['http://127.256.0.1/x', false],
    ['http://127.1/x', false],
    ['http://[::2]/x', false],
    ['http://128.0.0.1/x', false],
    ['http://127.0.0.1.example.com/x', false],
    ['https://reports.example.net/x', false],
    ['http://user@localhost.example/x', false],
  ])('%s: %s', (url, loopback) => {
    expect(isLoopbackUrl(url as string)).toBe(loopback);
  });
});

describe('addressProblem', () => {
  const deployment = { urlFetchWhitelist: ['https://reports.example.net/engage/v2/', 'https://recs.example.net/v1/'] };

  it('accepts whitelisted https addresses, and loopback addresses only in a build for local servers', () => {
    expect(addressProblem('https://reports.example.net/engage/v2/', deployment)).toBeUndefined();
    expect(addressProblem('http://127.0.0.1:8787/engage/v2/', { ...deployment, localServers: true })).toBeUndefined();
    expect(addressProblem('https://localhost/engage/v2/', { ...deployment, localServers: true })).toBeUndefined();
  });

  it('refuses a loopback address in a build for Google, whose Apps Script could never reach it', () => {
    for (const url of ['http://127.0.0.1:8787/engage/v2/', 'https://localhost/engage/v2/', 'http://[::1]:80/engage/v2/']) {
      expect(addressProblem(url, deployment)).toBe(
        'must be an address of your Engage service: this deployment does not accept a server on this machine (only the playground and the tests do)',
      );
      expect(addressProblem(url, undefined)).toMatch(/does not accept a server on this machine/);
    }
  });

  it('refuses an address outside the whitelist with one rule that names every allowed prefix', () => {
    expect(addressProblem('https://elsewhere.example.org/engage/v2/', deployment)).toBe(
      'must start with https://reports.example.net/engage/v2/ or https://recs.example.net/v1/, the addresses this add-on is allowed to call',
    );
    expect(addressProblem('https://recs.example.net/v1/x', deployment, ['https://reports.example.net/engage/v2/'])).toBe(
      'must start with https://reports.example.net/engage/v2/, the address this add-on is allowed to call',
    );
  });

  it('refuses plain http beyond this machine, whitelist or not', () => {
    expect(addressProblem('http://reports.example.net/engage/v2/', deployment)).toMatch(/^must be an https address/);
    expect(addressProblem('http://reports.example.net/engage/v2/', undefined)).toMatch(/^must be an https address/);
    expect(addressProblem('https://anywhere.example/engage/v2/', undefined)).toBeUndefined();
  });

  it('joins prefixes as a sentence does', () => {
    expect(describePrefixes(['a/', 'b/', 'c/'])).toBe('a/, b/ or c/');
  });
});
