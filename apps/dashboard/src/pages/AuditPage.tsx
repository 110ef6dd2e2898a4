import { Alert, Stack, Table, Text, Title } from '@mantine/core';
import type { AuditEntry } from '../api';
import { dateTime } from '../format';
import { useApi } from '../useApi';
import { ScrollRegion } from '../components/ScrollRegion';

/** Every dashboard action of the business's users: who, what, when, from which address (owners only). */
export function AuditPage() {
  const { data, error } = useApi<{ entries: AuditEntry[] }>('/audit');
  return (
    <Stack>
      <Title order={2}>Audit log</Title>
      {error && <Alert color="red">{error}</Alert>}
      {data && data.entries.length === 0 && <Text c="dark.6">Nothing recorded yet.</Text>}
      {data && data.entries.length > 0 && (
        <ScrollRegion label="Audit log">
          <Table miw={640} striped captionSide="top">
            <Table.Caption c="dark.8">The latest 50 actions, newest first</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>On</Table.Th>
                <Table.Th>Mode</Table.Th>
                <Table.Th>Address</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.entries.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{dateTime(e.date_created)}</Table.Td>
                  <Table.Td>{e.actor}</Table.Td>
                  <Table.Td>{e.action}</Table.Td>
                  <Table.Td>{e.target ?? '—'}</Table.Td>
                  <Table.Td>{e.mode ?? '—'}</Table.Td>
                  <Table.Td>{e.ip}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollRegion>
      )}
    </Stack>
  );
}
