import type { Role } from './roles';

/** Why a change of a user's role, or their removal, is refused; null when it may go ahead. */
export type MembershipProblem = 'not_found' | 'self' | 'last_owner' | null;

/**
 * The rules for an owner changing a user's role (`change` = the new role) or removing them
 * (`change` = 'removed'): only users of the same business, never one's own account (another owner
 * does that), and a business always keeps an owner. `users` are the business's users as they are
 * now (read under a lock, so two owners demoting each other cannot both succeed).
 */
export function membershipProblem(
  actorId: number,
  targetId: number,
  users: readonly { id: number; role: Role }[],
  change: Role | 'removed',
): MembershipProblem {
  const target = users.find((u) => u.id === targetId);
  if (!target) return 'not_found';
  if (targetId === actorId) return 'self';
  const staysOwner = change === 'owner';
  if (target.role === 'owner' && !staysOwner && users.filter((u) => u.role === 'owner').length <= 1)
    return 'last_owner';
  return null;
}
