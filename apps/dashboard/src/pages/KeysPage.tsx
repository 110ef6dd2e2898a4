import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { KeyList } from '@payments/contracts/dashboard-api';
import { RollKeyDialog } from '../components/RollKeyDialog';
import { DataTable } from '../components/DataTable';
import { dateTime } from '../format';
import { useSession } from '../session';
import { useApi } from '../useApi';

/** The mode's API keys, masked; a role that may roll them gets a Roll button per key type. */
export function KeysPage() {
  const { session, can } = useSession();
  const { data, error, reload } = useApi<KeyList>('/keys', session?.mode);
  const [rolling, setRolling] = useState<'secret' | 'public' | null>(null);
  if (!session) return null;
  return (
    <Stack>
      <Title order={2}>API keys</Title>
      <Text c="dark.7">Keys are shown only when they are made. Here you see enough of each to recognise it.</Text>
      {error && <Alert color="red">{error}</Alert>}
      {data && (
        <DataTable
          label="API keys"
          caption={`Working ${session.mode} keys`}
          minWidth={560}
          striped={false}
          rows={data.keys}
          rowKey={(k) => `${k.masked}-${k.date_created}`}
          columns={[
            { header: 'Type', cell: (k) => k.type },
            { header: 'Key', cell: (k) => <code>{k.masked}</code> },
            { header: 'Created', cell: (k) => dateTime(k.date_created) },
            { header: 'Stops working', cell: (k) => (k.expires_at ? dateTime(k.expires_at) : '—') },
          ]}
        />
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
