import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Allows, AnswersSecret, DashboardGuard } from './dashboard.guard';
import type { Idempotency } from '../http/idempotency';
import type { ApiRequest } from '../http/http-types';
import type { Action, Role } from './roles';
import type { Session, SessionStore } from './session-store';
import type { DashboardUser, DashboardUserStore } from './user-store';

const TOKEN = 'a'.repeat(43);
const CSRF = 'csrf-token-of-this-session';

function guardFor(role: Role | null, session: Partial<Session> | null = {}) {
  const stored: Session | null = session && {
    user_id: 7,
    business_id: 3,
    mode: 'test',
    csrf: CSRF,
    created_at: Date.now(),
    ...session,
  };
  const user: DashboardUser | null = role && {
    id: 7,
    business_id: 3,
    business_name: 'B',
    email: 'u@example.com',
    role,
    date_created: '',
  };
  const destroyed: string[] = [];
  const sessions = {
    get: async (t: string) => (t === TOKEN ? stored : null),
    destroy: async (t: string) => void destroyed.push(t),
  } as unknown as SessionStore;
  const users = { byId: async () => user } as unknown as DashboardUserStore;
  const idempotency = { claim: () => undefined } as unknown as Idempotency;
  return { guard: new DashboardGuard(sessions, users, new Reflector(), idempotency), destroyed };
}

/** A handler marked with `action`, and the request it serves. */
function call(action: Action | undefined, req: Partial<ApiRequest>): { ctx: ExecutionContext; req: ApiRequest } {
  const handler = () => undefined;
  if (action) Allows(action)(handler, 'handler', { value: handler });
  const full = { method: 'GET', headers: {}, ...req } as ApiRequest;
  const ctx = {
    switchToHttp: () => ({ getRequest: () => full }),
    getHandler: () => handler,
    getClass: () => Object,
  } as unknown as ExecutionContext;
  return { ctx, req: full };
}

const cookie = { cookie: `other=1; dashboard_session=${TOKEN}` };

describe('DashboardGuard', () => {
  it('401 without a session cookie, or with one the store does not know', async () => {
    await expect(guardFor('owner').guard.canActivate(call('payments.read', { headers: {} }).ctx)).rejects.toMatchObject(
      { code: 'not_signed_in' },
    );
    await expect(
      guardFor('owner').guard.canActivate(call('payments.read', { headers: { cookie: 'dashboard_session=nope' } }).ctx),
    ).rejects.toMatchObject({ code: 'not_signed_in' });
  });

  it('401 and the session is dropped when its user no longer exists', async () => {
    const { guard, destroyed } = guardFor(null);
    await expect(guard.canActivate(call('payments.read', { headers: cookie }).ctx)).rejects.toMatchObject({
      code: 'not_signed_in',
    });
    expect(destroyed).toEqual([TOKEN]);
  });

  it('refuses a state-changing request without the session’s CSRF token, before looking at the role', async () => {
    const { guard } = guardFor('owner');
    await expect(
      guard.canActivate(call('refunds.create', { method: 'POST', headers: cookie }).ctx),
    ).rejects.toMatchObject({ code: 'csrf_token_invalid' });
    await expect(
      guard.canActivate(
        call('refunds.create', { method: 'POST', headers: { ...cookie, 'x-csrf-token': 'wrong' } }).ctx,
      ),
    ).rejects.toMatchObject({ code: 'csrf_token_invalid' });
    await expect(guard.canActivate(call(undefined, { method: 'PUT', headers: cookie }).ctx)).rejects.toMatchObject({
      code: 'csrf_token_invalid',
    });
  });

  it('403 forbidden for a role the action is not allowed to, whatever the token', async () => {
    const { guard } = guardFor('viewer');
    await expect(
      guard.canActivate(call('refunds.create', { method: 'POST', headers: { ...cookie, 'x-csrf-token': CSRF } }).ctx),
    ).rejects.toMatchObject({ code: 'forbidden' });
    await expect(
      guard.canActivate(call('keys.roll', { method: 'POST', headers: { ...cookie, 'x-csrf-token': CSRF } }).ctx),
    ).rejects.toMatchObject({ code: 'forbidden' });
    await expect(guard.canActivate(call('audit.read', { headers: cookie }).ctx)).rejects.toMatchObject({
      code: 'forbidden',
    });
  });

  it('lets an allowed role through, acting as the business in the session’s mode', async () => {
    const { guard } = guardFor('developer', { mode: 'live' });
    const { ctx, req } = call('refunds.create', { method: 'POST', headers: { ...cookie, 'x-csrf-token': CSRF } });
    await expect(guard.canActivate(ctx)).resolves.toBe(true);
    expect(req.principal).toEqual({ business_id: 3, mode: 'live', key_type: 'secret' });
    expect(req.dashboard?.user.role).toBe('developer');
  });

  it('refuses an Idempotency-Key where the answer holds a secret shown once (it would be kept to replay)', async () => {
    const { guard } = guardFor('developer');
    const headers = { ...cookie, 'x-csrf-token': CSRF, 'idempotency-key': 'k-1' };
    const secretAnswer = call('webhooks.write', { method: 'POST', headers });
    AnswersSecret()(secretAnswer.ctx.getHandler(), 'handler', { value: secretAnswer.ctx.getHandler() });
    await expect(guard.canActivate(secretAnswer.ctx)).rejects.toMatchObject({
      code: 'validation_error',
      errors: [{ field: 'Idempotency-Key', message: 'is not accepted here' }],
    });
    // Without the mark, the same request is let through (its key is claimed as usual).
    await expect(guard.canActivate(call('webhooks.write', { method: 'POST', headers }).ctx)).resolves.toBe(true);
  });
});
