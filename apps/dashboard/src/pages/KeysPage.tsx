import { Alert, Button, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { ApiKeyItem } from '../api';
import { RollKeyDialog } from '../components/RollKeyDialog';
import { ScrollRegion } from '../components/ScrollRegion';
import { dateTime } from '../format';
import { useSession } from '../session';
import { useApi } from '../useApi';

/** The mode's API keys, masked; a role that may roll them gets a Roll button per key type. */
export function KeysPage() {
  const { session, can } = useSession();
  const { data, error, reload } = useApi<{ keys: ApiKeyItem[] }>('/keys', session?.mode);
  const [rolling, setRolling] = useState<'secret' | 'public' | null>(null);
  if (!session) return null;
  return (
    <Stack>
      <Title order={2}>API keys</Title>
      <Text c="dark.7">Keys are shown only when they are made. Here you see enough of each to recognise it.</Text>
      {error && <Alert color="red">{error}</Alert>}
      {data && (
        <ScrollRegion label="API keys">
          <Table miw={560} captionSide="top">
            <Table.Caption c="dark.8">Working {session.mode} keys</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Type</Table.Th>
                <Table.Th>Key</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Stops working</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.keys.map((k) => (
                <Table.Tr key={`${k.masked}-${k.date_created}`}>
                  <Table.Td>{k.type}</Table.Td>
                  <Table.Td>
                    <code>{k.masked}</code>
                  </Table.Td>
                  <Table.Td>{dateTime(k.date_created)}</Table.Td>
                  <Table.Td>{k.expires_at ? dateTime(k.expires_at) : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollRegion>
      )}
      {can('keys.roll') && (
        <Stack gap="xs" align="flex-start">
          <Button variant="default" onClick={() => setRolling('secret')}>
            Roll secret key
          </Button>
          <Button variant="default" onClick={() => setRolling('public')}>
            Roll public key
          </Button>
        </Stack>
      )}
      <RollKeyDialog
        type={rolling}
        mode={session.mode}
        onClose={() => {
          setRolling(null);
          reload();
        }}
      />
    </Stack>
  );
}
