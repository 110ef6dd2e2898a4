import { Alert, Button, Group, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { ApiError, api, type Delivery, type Endpoint } from '../api';
import { ScrollRegion } from '../components/ScrollRegion';
import { StatusBadge } from '../components/StatusBadge';
import { dateTime } from '../format';
import { useSession } from '../session';
import { useApi } from '../useApi';

function lastAnswer(d: Delivery): string {
  const last = d.attempts[d.attempts.length - 1];
  if (!last) return '—';
  return last.status_code !== null ? `HTTP ${last.status_code}` : (last.error ?? 'no answer');
}

/** Webhook endpoints and the delivery log of one: resend a delivery, recover the failed ones of the last day. */
export function WebhooksPage() {
  const { session, can } = useSession();
  const endpoints = useApi<{ endpoints: Endpoint[] }>('/webhooks', session?.mode);
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = chosen ?? (endpoints.data?.endpoints[0] ? String(endpoints.data.endpoints[0].id) : null);
  const log = useApi<{ deliveries: Delivery[] }>(selected ? `/webhooks/${selected}/deliveries` : '/webhooks', `${session?.mode}:${selected}`);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  const act = async (path: string, body: unknown, done: string) => {
    try {
      await api('POST', path, body);
      setNotice({ ok: true, text: done });
      log.reload();
    } catch (err) {
      setNotice({ ok: false, text: err instanceof ApiError ? err.message : 'Could not reach the server.' });
    }
  };
  const list = endpoints.data?.endpoints ?? [];
  const deliveries = selected ? ((log.data as { deliveries?: Delivery[] } | undefined)?.deliveries ?? []) : [];
  const endpoint = list.find((e) => String(e.id) === selected);

  return (
    <Stack>
      <Title order={2}>Webhooks</Title>
      {endpoints.error && <Alert color="red">{endpoints.error}</Alert>}
      {notice && (
        <Alert color={notice.ok ? 'green' : 'red'} role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      )}
      {endpoints.data && list.length === 0 && <Text c="dark.6">No webhook endpoints in this mode. Add one with POST /v1/callback.</Text>}
      {list.length > 0 && (
        <Group align="end">
          <Select label="Endpoint" data={list.map((e) => ({ value: String(e.id), label: e.url }))} value={selected} onChange={setChosen} allowDeselect={false} w={{ base: '100%', sm: 420 }} />
          {endpoint && (
            <Text size="sm" c="dark.7">
              {endpoint.is_active ? 'Active' : 'Disabled'} · {endpoint.failure_count} failures in a row · {endpoint.events.join(', ')}
            </Text>
          )}
          {endpoint && can('webhooks.write') && (
            <Button variant="default" onClick={() => void act(`/webhooks/${endpoint.id}/recover`, { since: new Date(Date.now() - 86_400_000).toISOString() }, 'Failed deliveries of the last 24 hours were queued again.')}>
              Recover failed (24 h)
            </Button>
          )}
        </Group>
      )}
      {selected && deliveries.length === 0 && !log.loading && <Text c="dark.6">No deliveries yet.</Text>}
      {deliveries.length > 0 && (
        <ScrollRegion label="Delivery log">
          <Table miw={720} striped captionSide="top">
            <Table.Caption c="dark.8">Delivery log, newest first</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Last answer</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {deliveries.map((d) => (
                <Table.Tr key={d.delivery_id}>
                  <Table.Td>{d.event}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={d.status} />
                  </Table.Td>
                  <Table.Td>{d.attempts.length}</Table.Td>
                  <Table.Td>{lastAnswer(d)}</Table.Td>
                  <Table.Td>{dateTime(d.date_created)}</Table.Td>
                  <Table.Td>
                    {can('webhooks.write') && d.status !== 'pending' && (
                      <Button size="xs" variant="default" aria-label={`Resend ${d.event} delivery ${d.delivery_id}`} onClick={() => void act(`/webhooks/${selected}/deliveries/${d.delivery_id}/resend`, undefined, 'Delivery queued again.')}>
                        Resend
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollRegion>
      )}
    </Stack>
  );
}
