import type { ApiReply, ApiRequest } from '../http/http-types';
import { header } from '../http/http-types';

export const SESSION_COOKIE = 'dashboard_session';

/** The session token from the Cookie header, or undefined. */
export function sessionToken(req: ApiRequest): string | undefined {
  const cookies = header(req, 'cookie');
  if (!cookies) return undefined;
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Path=/dashboard
 * (only the dashboard's pages and API get it), Secure when the request came over TLS (directly or
 * through the trusted proxy's X-Forwarded-Proto). No Max-Age: it lasts as long as the browser and
 * the server-side session, whichever ends first.
 */
function attributes(req: ApiRequest): string {
  return `Path=/dashboard; HttpOnly; SameSite=Strict${req.protocol === 'https' ? '; Secure' : ''}`;
}

export function setSessionCookie(req: ApiRequest, reply: ApiReply, token: string): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=${token}; ${attributes(req)}`);
}

export function clearSessionCookie(req: ApiRequest, reply: ApiReply): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=; ${attributes(req)}; Max-Age=0`);
}
