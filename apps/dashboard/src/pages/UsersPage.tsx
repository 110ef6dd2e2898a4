import { Alert, Button, Group, PasswordInput, Select, Stack, Table, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { UserList } from '@payments/contracts/dashboard-api';
import { ApiError, api } from '../api';
import { UserRowActions } from '../components/UserRowActions';
import { useSession } from '../session';
import { ScrollRegion } from '../components/ScrollRegion';
import { dateTime } from '../format';
import { useApi } from '../useApi';

const ROLES = [
  { value: 'viewer', label: 'Viewer: sees everything, changes nothing' },
  { value: 'developer', label: 'Developer: also refunds, webhooks, keys' },
  { value: 'owner', label: 'Owner: everything, users and connections too' },
];

/** The business's dashboard users; an owner invites more (with a first password to hand over). */
export function UsersPage() {
  const { session, can } = useSession();
  const { data, error, reload } = useApi<UserList>('/users');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<string>('viewer');
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  const invite = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await api('POST', '/users', { email: email.trim(), password, role });
      setNotice({ ok: true, text: `${email.trim()} can now sign in as ${role}.` });
      setEmail('');
      setPassword('');
      reload();
    } catch (err) {
      setNotice({ ok: false, text: err instanceof ApiError ? err.message : 'Could not reach the server.' });
    }
  };

  return (
    <Stack>
      <Title order={2}>Users</Title>
      {error && <Alert color="red">{error}</Alert>}
      {notice && (
        <Alert color={notice.ok ? 'green' : 'red'} role="status">
          {notice.text}
        </Alert>
      )}
      {data && (
        <ScrollRegion label="Users">
          <Table miw={640} captionSide="top">
            <Table.Caption c="dark.8">People who can sign in to this business’s dashboard</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Since</Table.Th>
                {can('users.write') && <Table.Th>Change</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.users.map((u) => (
                <Table.Tr key={u.id}>
                  <Table.Td id={`user-${u.id}-email`}>{u.email}</Table.Td>
                  <Table.Td>{u.role}</Table.Td>
                  <Table.Td>{dateTime(u.date_created)}</Table.Td>
                  {can('users.write') && (
                    <Table.Td>
                      {u.id === session?.user.id ? (
                        'You'
                      ) : (
                        <UserRowActions user={u} roles={ROLES} onNotice={setNotice} onChanged={reload} />
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollRegion>
      )}
      <Title order={3} size="h4">
        Invite someone
      </Title>
      <form onSubmit={(e) => void invite(e)}>
        <Group align="end">
          <TextInput
            label="E-mail address"
            type="email"
            required
            withAsterisk={false}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            w={{ base: '100%', sm: 260 }}
          />
          <PasswordInput
            label="First password (12 or more characters)"
            required
            withAsterisk={false}
            minLength={12}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            w={{ base: '100%', sm: 260 }}
          />
          <Select
            label="Role"
            data={ROLES}
            value={role}
            onChange={(v) => setRole(v ?? 'viewer')}
            allowDeselect={false}
            w={{ base: '100%', sm: 320 }}
          />
          <Button type="submit">Invite</Button>
        </Group>
      </form>
    </Stack>
  );
}
