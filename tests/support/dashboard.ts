import type { Stack } from './stack';

export type Role = 'owner' | 'developer' | 'viewer';

/** A password that meets the dashboard's rules, the same for every test user. */
export const TEST_PASSWORD = 'correct horse battery staple';

/** Creates a dashboard user through the admin API; answers its e-mail. */
export async function createDashboardUser(
  stack: Stack,
  businessId: number,
  role: Role,
  email = `${role}-${businessId}-${Math.random().toString(36).slice(2, 8)}@example.com`,
): Promise<string> {
  const res = await stack.api('POST', `/admin/v1/businesses/${businessId}/users`, {
    headers: { authorization: `Bearer ${stack.adminToken}` },
    body: { email, password: TEST_PASSWORD, role },
  });
  if (res.status !== 201) throw new Error(`create dashboard user failed: ${res.status} ${JSON.stringify(res.body)}`);
  return email;
}

export interface DashboardResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** A browser-like client of /dashboard/api: keeps the session cookie and sends the CSRF token. */
export class DashboardClient {
  cookie: string | undefined;
  csrf: string | undefined;

  constructor(private readonly stack: Stack) {}

  async login(email: string, password = TEST_PASSWORD): Promise<DashboardResponse> {
    const res = await this.request('POST', '/dashboard/api/login', { body: { email, password }, csrf: false });
    const set = res.headers.get('set-cookie');
    if (res.status === 200 && set) {
      this.cookie = set.split(';')[0];
      this.csrf = res.body.csrf_token as string;
    }
    return res;
  }

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    opts: { body?: unknown; csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<DashboardResponse<T>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (this.cookie) headers.cookie = this.cookie;
    if (opts.csrf !== false && this.csrf && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.stack.gatewayUrl}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* CSV or HTML: keep the text */
    }
    return { status: res.status, body: body as T, headers: res.headers };
  }

  get<T = Record<string, unknown>>(path: string): Promise<DashboardResponse<T>> {
    return this.request<T>('GET', path);
  }
}
