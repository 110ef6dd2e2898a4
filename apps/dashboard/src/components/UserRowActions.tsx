import { Button, Group, Select } from '@mantine/core';
import { api, type Role } from '../api';
import { problemText } from '../api-types';

/** An owner's changes to another user: a new role, or removing them (their sessions end at once). */
export function UserRowActions({
  user,
  roles,
  onNotice,
  onChanged,
}: {
  user: { id: number; email: string; role: Role };
  roles: { value: string; label: string }[];
  onNotice: (n: { ok: boolean; text: string }) => void;
  onChanged: () => void;
}) {
  const change = async (role: string | null) => {
    if (!role || role === user.role) return;
    try {
      await api('PATCH', `/users/${user.id}`, { role });
      onNotice({ ok: true, text: `${user.email} is now ${role}.` });
    } catch (err) {
      onNotice({ ok: false, text: problemText(err) });
    }
    onChanged();
  };
  const remove = async () => {
    if (!window.confirm(`Remove ${user.email}? They are signed out at once and can no longer sign in.`)) return;
    try {
      await api('DELETE', `/users/${user.id}`);
      onNotice({ ok: true, text: `${user.email} was removed and signed out.` });
    } catch (err) {
      onNotice({ ok: false, text: problemText(err) });
    }
    onChanged();
  };
  return (
    <Group gap="xs" wrap="nowrap">
      <Select
        aria-label={`Access level of ${user.email}`}
        data={roles.map((r) => ({ value: r.value, label: r.value }))}
        value={user.role}
        onChange={(v) => void change(v)}
        allowDeselect={false}
        w={130}
        size="xs"
      />
      {/* Named "Remove" and described by the row's e-mail cell: a name holding the e-mail would also name the cell. */}
      <Button
        size="xs"
        variant="default"
        color="red.9"
        aria-describedby={`user-${user.id}-email`}
        onClick={() => void remove()}
      >
        Remove
      </Button>
    </Group>
  );
}
