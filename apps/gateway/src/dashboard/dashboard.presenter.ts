import type { Mode } from '@payments/contracts';
import { allowedActions, type Action, type Role } from './roles';
import type { Session } from './session-store';
import type { DashboardUser } from './user-store';

export interface UserView {
  id: number;
  email: string;
  role: Role;
  business_id: number;
  business_name: string;
  date_created: string;
}

export interface SessionAnswer {
  result: 'success';
  user: UserView;
  mode: Mode;
  /** Send it back in X-CSRF-Token on every request that changes something. */
  csrf_token: string;
  /** What this user's role may do (roles.ts), so the pages show only what will work. */
  actions: Action[];
}

export function presentUser(u: DashboardUser): UserView {
  return { id: u.id, email: u.email, role: u.role, business_id: u.business_id, business_name: u.business_name, date_created: u.date_created };
}

export function presentSession(user: DashboardUser, session: Session): SessionAnswer {
  return { result: 'success', user: presentUser(user), mode: session.mode, csrf_token: session.csrf, actions: allowedActions(user.role) };
}
