import { Alert, Code, Modal, Stack, Table, Text, Title } from '@mantine/core';
import type { Delivery } from '../api';
import type { EventItem } from '../api-types';
import { dateTime } from '../format';
import { useSession } from '../session';
import { useApi } from '../useApi';

/**
 * One delivery of the log: the request (method, URL and the body every attempt sent, which is the
 * event as the events API shows it) and each attempt's answer and duration.
 */
export function DeliveryDialog({
  delivery,
  url,
  onClose,
}: {
  delivery: Delivery | null;
  url: string;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={delivery !== null}
      onClose={onClose}
      size="xl"
      title={delivery ? `Delivery of ${delivery.event}` : ''}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {delivery && <DeliveryDetail delivery={delivery} url={url} />}
    </Modal>
  );
}

function DeliveryDetail({ delivery, url }: { delivery: Delivery; url: string }) {
  const { session } = useSession();
  const body = useApi<{ event: EventItem }>(`/events/${encodeURIComponent(delivery.event_id)}`, session?.mode);
  return (
    <Stack>
      <Title order={3} size="h5">
        Request
      </Title>
      <Text size="sm">
        POST to the endpoint’s current URL, {url} (event {delivery.event_id})
      </Text>
      {body.data && (
        <Code block aria-label="Request body">
          {JSON.stringify(body.data.event, null, 2)}
        </Code>
      )}
      {body.error && <Alert color="gray">The body is not kept for this delivery ({body.error}).</Alert>}
      <Table striped captionSide="top">
        <Table.Caption c="dark.8">Attempts, oldest first</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Attempt</Table.Th>
            <Table.Th>Sent</Table.Th>
            <Table.Th>Response</Table.Th>
            <Table.Th>Duration</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {delivery.attempts.map((a) => (
            <Table.Tr key={a.attempt}>
              <Table.Td>{a.attempt}</Table.Td>
              <Table.Td>{dateTime(a.date_created)}</Table.Td>
              <Table.Td>{a.status_code !== null ? `HTTP ${a.status_code}` : (a.error ?? 'no answer')}</Table.Td>
              <Table.Td>{a.duration_ms} ms</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {delivery.attempts.length === 0 && <Text c="dark.6">Not attempted yet.</Text>}
      {delivery.next_attempt_at && <Text size="sm">Next attempt at {dateTime(delivery.next_attempt_at)}.</Text>}
    </Stack>
  );
}
