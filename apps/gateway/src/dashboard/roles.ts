/**
 * Who may do what in the dashboard: one table of role × action. Every dashboard API handler names
 * its action (@Allows), and DashboardGuard refuses (403 forbidden) a signed-in user whose role is
 * not listed for it, so hiding a button is never the only protection.
 */
export const ROLES = ['owner', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const ALL: readonly Role[] = ROLES;
const BUILDERS: readonly Role[] = ['owner', 'developer'];
const OWNER: readonly Role[] = ['owner'];

export const PERMISSIONS = {
  /** Overview, payments list and export, a payment's page. */
  'payments.read': ALL,
  'refunds.create': BUILDERS,
  'links.read': ALL,
  'links.write': BUILDERS,
  'splits.read': ALL,
  /** Create, change and deactivate split configs (they move money to partners on every payment). */
  'splits.write': OWNER,
  'events.read': ALL,
  'webhooks.read': ALL,
  /** Resend a delivery, recover failed ones. */
  'webhooks.write': BUILDERS,
  /** API keys, masked. */
  'keys.read': ALL,
  /** Roll a key (the new secret is shown once). */
  'keys.roll': BUILDERS,
  'settings.read': ALL,
  /** Provider connections and redirect origins. */
  'connections.write': OWNER,
  'users.read': OWNER,
  'users.invite': OWNER,
  /** Change another user's role, remove another user. */
  'users.write': OWNER,
  'audit.read': OWNER,
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;
export const ACTIONS = Object.keys(PERMISSIONS) as Action[];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function may(role: Role, action: Action): boolean {
  return (PERMISSIONS[action] as readonly Role[]).includes(role);
}

/** The actions a role may take: sent to the browser so it shows only what will work. */
export function allowedActions(role: Role): Action[] {
  return ACTIONS.filter((a) => may(role, a));
}
