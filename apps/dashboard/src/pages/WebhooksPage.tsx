import { Alert, Badge, Button, Group, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { api, type Delivery, type Endpoint } from '../api';
import { problemText, type EndpointList } from '../api-types';
import { EndpointActions, type Notice } from '../components/EndpointActions';
import { EndpointDialog, type EndpointFields } from '../components/EndpointDialog';
import { ScrollRegion } from '../components/ScrollRegion';
import { DeliveryDialog } from '../components/DeliveryDialog';
import { SecretDialog } from '../components/SecretDialog';
import { StatusBadge } from '../components/StatusBadge';
import { dateTime } from '../format';
import { useSession } from '../session';
import { useApi } from '../useApi';

function lastAnswer(d: Delivery): string {
  const last = d.attempts[d.attempts.length - 1];
  if (!last) return '—';
  return `${last.status_code !== null ? `HTTP ${last.status_code}` : (last.error ?? 'no answer')}, ${last.duration_ms} ms`;
}

/**
 * Webhook endpoints: add, edit, disable or enable one, delete it, send it a test ping, roll its signing
 * secret (shown once), and its delivery log: resend a delivery, recover the failed ones of the last day.
 */
export function WebhooksPage() {
  const { session, can } = useSession();
  const endpoints = useApi<EndpointList>('/webhooks', session?.mode);
  const [chosen, setChosen] = useState<string | null>(null);
  const list = endpoints.data?.endpoints ?? [];
  const selected = chosen && list.some((e) => String(e.id) === chosen) ? chosen : list[0] ? String(list[0].id) : null;
  const log = useApi<{ deliveries: Delivery[] }>(selected ? `/webhooks/${selected}/deliveries` : '/webhooks', `${session?.mode}:${selected}`);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [editing, setEditing] = useState<Endpoint | 'new' | null>(null);
  const [secret, setSecret] = useState<{ secret: string; previousExpires: string | null } | null>(null);
  const [shown, setShown] = useState<Delivery | null>(null);
  const writer = can('webhooks.write');

  const resend = async (deliveryId: string) => {
    try {
      await api('POST', `/webhooks/${selected}/deliveries/${deliveryId}/resend`);
      setNotice({ ok: true, text: 'Delivery queued again.' });
      log.reload();
    } catch (err) {
      setNotice({ ok: false, text: problemText(err) });
    }
  };
  const save = async (fields: EndpointFields): Promise<string | null> => {
    try {
      if (editing === 'new') {
        const r = await api<{ endpoint: Endpoint; secret: string }>('POST', `/webhooks?mode=${session?.mode}`, fields);
        setChosen(String(r.endpoint.id));
        setSecret({ secret: r.secret, previousExpires: null });
        setNotice({ ok: true, text: `Endpoint ${r.endpoint.url} added.` });
      } else if (editing) {
        await api('PATCH', `/webhooks/${editing.id}`, fields);
        setNotice({ ok: true, text: 'Endpoint saved.' });
      }
      setEditing(null);
      endpoints.reload();
      return null;
    } catch (err) {
      return problemText(err);
    }
  };
  const deliveries = selected ? ((log.data as { deliveries?: Delivery[] } | undefined)?.deliveries ?? []) : [];
  const endpoint = list.find((e) => String(e.id) === selected);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Webhooks</Title>
        {writer && endpoints.data && <Button onClick={() => setEditing('new')}>Add endpoint</Button>}
      </Group>
      {endpoints.error && <Alert color="red">{endpoints.error}</Alert>}
      {notice && (
        <Alert color={notice.ok ? 'green' : 'red'} role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      )}
      {endpoints.data && list.length === 0 && <Text c="dark.6">No webhook endpoints in this mode yet.</Text>}
      {list.length > 0 && (
        <Group align="end">
          <Select label="Endpoint" data={list.map((e) => ({ value: String(e.id), label: e.url }))} value={selected} onChange={setChosen} allowDeselect={false} w={{ base: '100%', sm: 420 }} />
          {endpoint && (
            <Stack gap={4}>
              <Group gap="xs">
                <Badge color={endpoint.is_active ? '#1b5e20' : '#b71c1c'} variant="filled">
                  {endpoint.is_active ? 'Active' : 'Disabled'}
                </Badge>
                <Text size="sm" c="dark.7">
                  {endpoint.failure_count} failures in a row{endpoint.description ? ` · ${endpoint.description}` : ''}
                </Text>
              </Group>
              <Text size="sm" c="dark.7">
                Sends: {endpoint.events.join(', ')}
              </Text>
            </Stack>
          )}
        </Group>
      )}
      {endpoint && writer && (
        <EndpointActions endpoint={endpoint} onEdit={() => setEditing(endpoint)} onNotice={setNotice} onSecret={(s, p) => setSecret({ secret: s, previousExpires: p })} onChanged={() => { endpoints.reload(); log.reload(); }} onDeleted={() => endpoints.reload()} />
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
                    <Button size="xs" variant="subtle" mr="xs" aria-label={`Details of ${d.event} delivery ${d.delivery_id}`} onClick={() => setShown(d)}>
                      Details
                    </Button>
                    {writer && d.status !== 'pending' && d.event !== 'ping' && (
                      <Button size="xs" variant="default" aria-label={`Resend ${d.event} delivery ${d.delivery_id}`} onClick={() => void resend(d.delivery_id)}>
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
      <EndpointDialog opened={editing !== null} endpoint={editing === 'new' ? null : editing} eventTypes={endpoints.data?.event_types ?? []} onSave={save} onClose={() => setEditing(null)} />
      <DeliveryDialog delivery={shown} url={endpoint?.url ?? ''} onClose={() => setShown(null)} />
      <SecretDialog secret={secret?.secret ?? null} previousExpires={secret?.previousExpires ?? null} onClose={() => setSecret(null)} />
    </Stack>
  );
}
