import type { DashboardApi } from '@payments/contracts';
import { allowedActions } from './roles';
import type { Session } from './session-store';
import type { DashboardUser } from './user-store';

export type UserView = DashboardApi.UserView;
export type SessionAnswer = DashboardApi.SessionAnswer;

export function presentUser(u: DashboardUser): UserView {
  return {
    id: u.id,
    email: u.email,
    role: u.role,
    business_id: u.business_id,
    business_name: u.business_name,
    date_created: u.date_created,
  };
}

export function presentSession(user: DashboardUser, session: Session): SessionAnswer {
  return {
    result: 'success',
    user: presentUser(user),
    mode: session.mode,
    csrf_token: session.csrf,
    actions: allowedActions(user.role),
  };
}
