import { timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCodes } from '@payments/contracts';
import { ApiException } from '../http/api-exception';
import { header, type ApiRequest } from '../http/http-types';
import { Idempotency } from '../http/idempotency';
import { may, type Action } from './roles';
import { sessionToken } from './session-cookie';
import { SessionStore, type Session } from './session-store';
import { DashboardUserStore, type DashboardUser } from './user-store';

/** Who is asking, set by DashboardGuard on every dashboard API request. */
export interface DashboardContext {
  user: DashboardUser;
  session: Session;
  token: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by DashboardGuard (dashboard API routes only). */
    dashboard?: DashboardContext;
  }
}

const ACTION = 'dashboard-action';
/** The action a dashboard handler takes (roles.ts): the guard refuses roles not allowed it. */
export const Allows = (action: Action) => SetMetadata(ACTION, action);

const ANY_MODE = 'dashboard-any-mode';
/** A state-changing handler that is not about one mode's data (the mode switch, sign-out, users, redirect origins). */
export const AnyMode = () => SetMetadata(ANY_MODE, true);

const SECRET_ANSWER = 'dashboard-secret-answer';
/**
 * The handler's answer holds a secret shown once (a new API key, a webhook signing secret): never
 * kept for an idempotent replay.
 */
export const AnswersSecret = () => SetMetadata(SECRET_ANSWER, true);

const SAFE_METHODS = new Set(['GET', 'HEAD']);

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Every dashboard API route but sign-in: a live session (401 not_signed_in), its CSRF token in
 * X-CSRF-Token on anything but GET (403 csrf_token_invalid), then the route's action for the user's
 * role (403 forbidden). The user is read on every request, so a changed role applies at once. The
 * request then gets the RPC context of a secret key of the session's mode, so the services apply
 * exactly the API's rules.
 */
@Injectable()
export class DashboardGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionStore,
    private readonly users: DashboardUserStore,
    private readonly reflector: Reflector,
    private readonly idempotency: Idempotency,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const token = sessionToken(req);
    const session = token ? await this.sessions.get(token) : null;
    if (!token || !session)
      throw new ApiException(ErrorCodes.NotSignedIn, 'not signed in, or the session ended; sign in again');
    const user = await this.users.byId(session.user_id);
    if (!user || user.business_id !== session.business_id) {
      await this.sessions.destroy(token);
      throw new ApiException(ErrorCodes.NotSignedIn, 'not signed in, or the session ended; sign in again');
    }
    if (!SAFE_METHODS.has(req.method) && !sameToken(header(req, 'x-csrf-token') ?? '', session.csrf)) {
      throw new ApiException(ErrorCodes.CsrfTokenInvalid, 'missing or wrong X-CSRF-Token header; reload the dashboard');
    }
    const action = this.reflector.get<Action | undefined>(ACTION, context.getHandler());
    if (action !== undefined && !may(user.role, action)) {
      throw new ApiException(ErrorCodes.Forbidden, `a ${user.role} may not do this (${action})`);
    }
    // The app names the mode its page showed on every change (X-Dashboard-Mode): another tab may
    // have switched the session since, and the change must not land in the other mode's data.
    const shown = header(req, 'x-dashboard-mode');
    if (
      !SAFE_METHODS.has(req.method) &&
      shown !== undefined &&
      shown !== session.mode &&
      !this.reflector.get<boolean>(ANY_MODE, context.getHandler())
    ) {
      throw new ApiException(
        ErrorCodes.ModeMismatch,
        `the session is in ${session.mode} mode now (another tab switched it); reload the page`,
      );
    }
    req.dashboard = { user, session, token };
    req.principal = { business_id: user.business_id, mode: session.mode, key_type: 'secret' };
    if (
      this.reflector.get<boolean | undefined>(SECRET_ANSWER, context.getHandler()) &&
      header(req, 'idempotency-key') !== undefined
    ) {
      throw new ApiException(
        ErrorCodes.ValidationError,
        'this request takes no Idempotency-Key: its answer holds a secret shown once and never kept',
        [{ field: 'Idempotency-Key', message: 'is not accepted here' }],
      );
    }
    // The dashboard's own scope, per user: its keys never replay or block a merchant's API calls.
    const claiming = this.idempotency.claim(req, { scope: `dashboard:${user.business_id}:${session.mode}:${user.id}` });
    if (claiming) await claiming;
    return true;
  }
}
