import { ACTIONS, PERMISSIONS, ROLES, allowedActions, may, type Action, type Role } from './roles';

/**
 * The authorization matrix, written out in full: changing who may do what means changing this
 * table too, on purpose. Y = allowed, - = refused (403 forbidden from the API).
 */
const MATRIX: Record<Action, Record<Role, 'Y' | '-'>> = {
  'payments.read': { owner: 'Y', developer: 'Y', viewer: 'Y' },
  'refunds.create': { owner: 'Y', developer: 'Y', viewer: '-' },
  'links.read': { owner: 'Y', developer: 'Y', viewer: 'Y' },
  'links.write': { owner: 'Y', developer: 'Y', viewer: '-' },
  'splits.read': { owner: 'Y', developer: 'Y', viewer: 'Y' },
  'splits.write': { owner: 'Y', developer: '-', viewer: '-' },
  'events.read': { owner: 'Y', developer: 'Y', viewer: 'Y' },
  'webhooks.read': { owner: 'Y', developer: 'Y', viewer: 'Y' },
  'webhooks.write': { owner: 'Y', developer: 'Y', viewer: '-' },
  'keys.read': { owner: 'Y', developer: 'Y', viewer: 'Y' },
  'keys.roll': { owner: 'Y', developer: 'Y', viewer: '-' },
  'settings.read': { owner: 'Y', developer: 'Y', viewer: 'Y' },
  'connections.write': { owner: 'Y', developer: '-', viewer: '-' },
  'users.read': { owner: 'Y', developer: '-', viewer: '-' },
  'users.invite': { owner: 'Y', developer: '-', viewer: '-' },
  'users.write': { owner: 'Y', developer: '-', viewer: '-' },
  'audit.read': { owner: 'Y', developer: '-', viewer: '-' },
};

describe('dashboard roles × actions', () => {
  it('the matrix covers every action and every role', () => {
    expect(Object.keys(MATRIX).sort()).toEqual([...ACTIONS].sort());
    expect(ROLES).toEqual(['owner', 'developer', 'viewer']);
  });

  for (const action of Object.keys(PERMISSIONS) as Action[]) {
    for (const role of ROLES) {
      const allowed = MATRIX[action][role] === 'Y';
      it(`${role} ${allowed ? 'may' : 'may not'} ${action}`, () => {
        expect(may(role, action)).toBe(allowed);
      });
    }
  }

  it('a viewer only reads; an owner may do everything', () => {
    expect(allowedActions('viewer').every((a) => a.endsWith('.read'))).toBe(true);
    expect(allowedActions('owner')).toEqual(ACTIONS);
  });
});
