/**
 * A deliberately thin HTTP client for the contract tests: it sends exactly what a test says and
 * returns status, headers and the parsed body, so each test asserts the emulator's observable
 * behaviour over real HTTP rather than through any production client code.
 */
import { DEMO_USER, TOKEN_HEADER, newEmulator, type EmulatorHandle } from '../support/emulator';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export type QueryValues = Record<string, string | number | undefined>;

export function withQuery(url: string, query: QueryValues = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}

export async function request<T = any>(url: string, init: RequestInit = {}): Promise<HttpResult<T>> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Keep the raw text (e.g. a malformed-JSON fault).
  }
  return { status: response.status, headers: response.headers, body };
}

/** GET {baseUrl}{path} with the token header. */
export function apiGet<T = any>(
  emulator: EmulatorHandle,
  token: string | undefined,
  path: string,
  query?: QueryValues,
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = token === undefined ? {} : { [TOKEN_HEADER]: token };
  return request<T>(withQuery(`${emulator.baseUrl}${path}`, query), { headers });
}

/** Checks the service's error envelope and returns the message. */
export function errorMessageOf(result: HttpResult): string {
  expect(Object.keys(result.body).sort()).toEqual(['errorMessage', 'moreInfo']);
  expect(typeof result.body.moreInfo).toBe('string');
  expect(typeof result.body.errorMessage).toBe('string');
  return result.body.errorMessage;
}

/**
 * A fresh emulator instance for a test file, its clock at `clockIso`, with the demo user signed in;
 * `use` receives both. Every test starts a minute later than the one before, so none inherits
 * another's rate window (30 report requests a minute per publisher).
 */
export function useSignedInEmulator(clockIso: string, use: (emulator: EmulatorHandle, token: string) => void): void {
  let emulator: EmulatorHandle;
  beforeAll(async () => {
    emulator = await newEmulator();
    await emulator.setClock(clockIso);
    use(emulator, await emulator.login(DEMO_USER.email, DEMO_USER.password));
  });
  beforeEach(async () => {
    await emulator.advanceClock(61_000);
  });
  afterAll(async () => {
    await emulator.close();
  });
}
