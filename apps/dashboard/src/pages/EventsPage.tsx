import { Alert, Anchor, Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router-dom';
import { query } from '../api';
import type { EventItem } from '../api-types';
import { ScrollRegion } from '../components/ScrollRegion';
import { dateTime } from '../format';
import { useSession } from '../session';
import { useApi } from '../useApi';

/** What an event is about: the reference of the payment (or refunded payment) or payout its data names. */
function subject(e: EventItem): string {
  const d = e.data;
  const ref = d.transaction_reference ?? d.invoice_reference ?? d.transaction_id;
  return typeof ref === 'string' ? ref : '—';
}

/** The events API, browsable: newest first, a type filter and cursor paging kept in the URL. */
export function EventsPage() {
  const { session } = useSession();
  const [params, setParams] = useSearchParams();
  const type = params.get('type') ?? '';
  const cursor = { starting_after: params.get('starting_after'), ending_before: params.get('ending_before') };
  const { data, error } = useApi<{ events: EventItem[]; has_more: boolean; event_types: string[] }>(
    `/events${query({ type, ...cursor })}`,
    session?.mode,
  );
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next);
  };
  const events = data?.events ?? [];
  const older = cursor.ending_before ? true : (data?.has_more ?? false);
  const newer = Boolean(cursor.starting_after) || (Boolean(cursor.ending_before) && (data?.has_more ?? false));

  return (
    <Stack>
      <Title order={2}>Events</Title>
      <Select
        label="Event type"
        placeholder="Any"
        clearable
        data={data?.event_types ?? []}
        value={type || null}
        onChange={(v) => set({ type: v, starting_after: null, ending_before: null })}
        w={{ base: '100%', sm: 260 }}
      />
      {error && <Alert color="red">{error}</Alert>}
      {data && events.length === 0 && <Text c="dark.6">No events.</Text>}
      {events.length > 0 && (
        <ScrollRegion label="Events">
          <Table miw={640} striped captionSide="top">
            <Table.Caption c="dark.8">Events, newest first</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>About</Table.Th>
                <Table.Th>Id</Table.Th>
                <Table.Th>Time</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {events.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/events/${e.id}`} aria-label={`${e.event} ${subject(e)}`}>
                      {e.event}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{subject(e)}</Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {e.id}
                    </Text>
                  </Table.Td>
                  <Table.Td>{dateTime(e.created_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollRegion>
      )}
      <Group justify="flex-end">
        <Button
          variant="default"
          disabled={!newer || events.length === 0}
          onClick={() => set({ ending_before: events[0]?.id, starting_after: null })}
        >
          Newer
        </Button>
        <Button
          variant="default"
          disabled={!older || events.length === 0}
          onClick={() => set({ starting_after: events[events.length - 1]?.id, ending_before: null })}
        >
          Older
        </Button>
      </Group>
    </Stack>
  );
}
