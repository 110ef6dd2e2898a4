import { Alert, Anchor, Code, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import type { EventDelivery, EventItem } from '../api-types';
import { ScrollRegion } from '../components/ScrollRegion';
import { StatusBadge } from '../components/StatusBadge';
import { dateTime } from '../format';
import { useSession } from '../session';
import { useApi } from '../useApi';

/** One event: its payload (the body its webhooks carry) and the deliveries it caused. */
export function EventPage() {
  const { id = '' } = useParams();
  const { session } = useSession();
  const { data, error } = useApi<{ event: EventItem; deliveries: EventDelivery[] }>(
    `/events/${encodeURIComponent(id)}`,
    session?.mode,
  );
  return (
    <Stack>
      <Anchor component={Link} to="/events">
        ← Events
      </Anchor>
      {error && <Alert color="red">{error}</Alert>}
      {data && (
        <>
          <Title order={2}>Event {data.event.event}</Title>
          <Text c="dark.7">
            {data.event.id} · {dateTime(data.event.created_at)} · {data.event.mode} mode
          </Text>
          <Title order={3} size="h4">
            Payload
          </Title>
          <Code block aria-label="Event payload" tabIndex={0} style={{ overflowX: 'auto' }}>
            {JSON.stringify(data.event, null, 2)}
          </Code>
          <Title order={3} size="h4">
            Webhook deliveries
          </Title>
          {data.deliveries.length === 0 ? (
            <Text c="dark.6">No endpoint was subscribed to this event.</Text>
          ) : (
            <ScrollRegion label="Webhook deliveries">
              <Table miw={640} captionSide="top">
                <Table.Caption c="dark.8">Deliveries of this event</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Endpoint</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Attempts</Table.Th>
                    <Table.Th>Last answer</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.deliveries.map((d) => (
                    <Table.Tr key={d.delivery_id}>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{d.callback_url}</Table.Td>
                      <Table.Td>
                        <StatusBadge status={d.status} />
                      </Table.Td>
                      <Table.Td>{d.attempts}</Table.Td>
                      <Table.Td>
                        {d.last_status_code !== null ? `HTTP ${d.last_status_code}` : (d.last_error ?? '—')}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollRegion>
          )}
        </>
      )}
    </Stack>
  );
}
