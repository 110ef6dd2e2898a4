import { Anchor, Group, Text, Timeline } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { PaymentEvent } from '../api';
import { dateTime } from '../format';
import { StatusBadge } from './StatusBadge';

/** The payment's and its refunds' events (status changes), oldest first, each with the webhook deliveries it caused. */
export function EventTimeline({ events }: { events: PaymentEvent[] | null }) {
  if (events === null) return <Text c="dark.6">The timeline cannot be shown right now.</Text>;
  if (events.length === 0) return <Text c="dark.6">No events yet.</Text>;
  return (
    <Timeline bulletSize={14} lineWidth={2} active={events.length - 1} aria-label="Events of this payment">
      {events.map((e) => (
        <Timeline.Item key={e.id} title={e.event}>
          <Text size="sm" c="dark.7">
            {dateTime(e.created_at)} · {e.id}
          </Text>
          {e.deliveries.map((d) => (
            <Group key={d.delivery_id} gap="xs" mt={4}>
              <Text size="sm">Webhook to endpoint #{d.callback_id}:</Text>
              <StatusBadge status={d.status} />
              <Text size="sm" c="dark.7">
                {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
                {d.last_error ? ` · ${d.last_error}` : ''}
              </Text>
              <Anchor component={Link} to="/webhooks" size="sm">
                Delivery log
              </Anchor>
            </Group>
          ))}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
