import { Alert, Stack, Text, Title } from '@mantine/core';
import type { AuditPage as AuditAnswer } from '@payments/contracts/dashboard-api';
import { dateTime } from '../format';
import { useApi } from '../useApi';
import { DataTable } from '../components/DataTable';

/** Every dashboard action of the business's users: who, what, when, from which address (owners only). */
export function AuditPage() {
  const { data, error } = useApi<AuditAnswer>('/audit');
  return (
    <Stack>
      <Title order={2}>Audit log</Title>
      {error && <Alert color="red">{error}</Alert>}
      {data && data.entries.length === 0 && <Text c="dark.6">Nothing recorded yet.</Text>}
      {data && data.entries.length > 0 && (
        <DataTable
          label="Audit log"
          caption="The latest 50 actions, newest first"
          minWidth={640}
          rows={data.entries}
          rowKey={(e) => e.id}
          columns={[
            { header: 'When', cell: (e) => dateTime(e.date_created) },
            { header: 'Who', cell: (e) => e.actor },
            { header: 'Action', cell: (e) => e.action },
            { header: 'On', cell: (e) => e.target ?? '—' },
            { header: 'Mode', cell: (e) => e.mode ?? '—' },
            { header: 'Address', cell: (e) => e.ip },
          ]}
        />
      )}
    </Stack>
  );
}
