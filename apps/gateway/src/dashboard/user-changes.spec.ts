import { membershipProblem } from './user-changes';

describe('changing and removing dashboard users', () => {
  const users = [
    { id: 1, role: 'owner' as const },
    { id: 2, role: 'developer' as const },
    { id: 3, role: 'viewer' as const },
  ];

  it('lets an owner change another user’s role or remove them', () => {
    expect(membershipProblem(1, 2, users, 'viewer')).toBeNull();
    expect(membershipProblem(1, 3, users, 'owner')).toBeNull();
    expect(membershipProblem(1, 3, users, 'removed')).toBeNull();
  });

  it('refuses a user of another business (not among the business’s users) as not found', () => {
    expect(membershipProblem(1, 99, users, 'viewer')).toBe('not_found');
    expect(membershipProblem(1, 99, users, 'removed')).toBe('not_found');
  });

  it('refuses the owner’s own account, whatever the change', () => {
    expect(membershipProblem(1, 1, users, 'viewer')).toBe('self');
    expect(membershipProblem(1, 1, users, 'owner')).toBe('self');
    expect(membershipProblem(1, 1, users, 'removed')).toBe('self');
  });

  it('never leaves the business without an owner', () => {
    // The acting owner was demoted meanwhile (another owner's change): the last owner stays one.
    const oneOwner = [
      { id: 1, role: 'developer' as const },
      { id: 4, role: 'owner' as const },
    ];
    expect(membershipProblem(1, 4, oneOwner, 'developer')).toBe('last_owner');
    expect(membershipProblem(1, 4, oneOwner, 'removed')).toBe('last_owner');
    expect(membershipProblem(1, 4, oneOwner, 'owner')).toBeNull();
  });

  it('lets one of two owners demote or remove the other', () => {
    const twoOwners = [...users, { id: 4, role: 'owner' as const }];
    expect(membershipProblem(1, 4, twoOwners, 'viewer')).toBeNull();
    expect(membershipProblem(1, 4, twoOwners, 'removed')).toBeNull();
  });
});
