import { Alert, Badge, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { DeliveryList, EndpointCreated } from '@payments/contracts/dashboard-api';
import { api, type Delivery, type Endpoint } from '../api';
import { problemText, type EndpointList } from '../api-types';
import { EndpointActions, type Notice } from '../components/EndpointActions';
import { EndpointDialog, type EndpointFields } from '../components/EndpointDialog';
import { DataTable } from '../components/DataTable';
import { DeliveryDialog } from '../components/DeliveryDialog';
import { SecretDialog } from '../components/SecretDialog';
import { StatusBadge } from '../components/StatusBadge';
import { dateTime } from '../format';
import { useSession } from '../session';
import { useApi } from '../useApi';

function lastAnswer(d: Delivery): string {
  const last = d.attempts[d.attempts.length - 1];
  if (!last) return '—';
  const outcome = last.status_code !== null ? `HTTP ${last.status_code}` : (last.error ?? 'no answer');
  return `${outcome}, ${last.duration_ms} ms`;
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
  const log = useApi<DeliveryList>(
    selected ? `/webhooks/${selected}/deliveries` : '/webhooks',
    `${session?.mode}:${selected}`,
  );
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
        const r = await api<EndpointCreated>('POST', `/webhooks?mode=${session?.mode}`, fields);
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
        <Alert
          color={notice.ok ? 'green' : 'red'}
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setNotice(null)}
        >
          {notice.text}
        </Alert>
      )}
      {endpoints.data && list.length === 0 && <Text c="dark.6">No webhook endpoints in this mode yet.</Text>}
      {list.length > 0 && (
        <Group align="end">
          <Select
            label="Endpoint"
            data={list.map((e) => ({ value: String(e.id), label: e.url }))}
            value={selected}
            onChange={setChosen}
            allowDeselect={false}
            w={{ base: '100%', sm: 420 }}
          />
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
        <EndpointActions
          endpoint={endpoint}
          onEdit={() => setEditing(endpoint)}
          onNotice={setNotice}
          onSecret={(s, p) => setSecret({ secret: s, previousExpires: p })}
          onChanged={() => {
            endpoints.reload();
            log.reload();
          }}
          onDeleted={() => endpoints.reload()}
        />
      )}
      {selected && deliveries.length === 0 && !log.loading && <Text c="dark.6">No deliveries yet.</Text>}
      {deliveries.length > 0 && (
        <DataTable
          label="Delivery log"
          caption="Delivery log, newest first"
          minWidth={720}
          rows={deliveries}
          rowKey={(d) => d.delivery_id}
          columns={[
            { header: 'Event', cell: (d) => d.event },
            { header: 'Status', cell: (d) => <StatusBadge status={d.status} /> },
            { header: 'Attempts', cell: (d) => d.attempts.length },
            { header: 'Last answer', cell: (d) => lastAnswer(d) },
            { header: 'Created', cell: (d) => dateTime(d.date_created) },
            {
              header: 'Actions',
              visuallyHiddenHeader: true,
              cell: (d) => (
                <>
                  <Button
                    size="xs"
                    variant="subtle"
                    mr="xs"
                    aria-label={`Details of ${d.event} delivery ${d.delivery_id}`}
                    onClick={() => setShown(d)}
                  >
                    Details
                  </Button>
                  {writer && d.status !== 'pending' && d.event !== 'ping' && (
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Resend ${d.event} delivery ${d.delivery_id}`}
                      onClick={() => void resend(d.delivery_id)}
                    >
                      Resend
                    </Button>
                  )}
                </>
              ),
            },
          ]}
        />
      )}
      <EndpointDialog
        opened={editing !== null}
        endpoint={editing === 'new' ? null : editing}
        eventTypes={endpoints.data?.event_types ?? []}
        onSave={save}
        onClose={() => setEditing(null)}
      />
      <DeliveryDialog delivery={shown} url={endpoint?.url ?? ''} onClose={() => setShown(null)} />
      <SecretDialog
        secret={secret?.secret ?? null}
        previousExpires={secret?.previousExpires ?? null}
        onClose={() => setSecret(null)}
      />
    </Stack>
  );
}
