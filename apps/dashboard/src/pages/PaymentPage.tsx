import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useParams } from 'react-router-dom';
import type { PaymentDetail } from '@payments/contracts/dashboard-api';
import { EventTimeline } from '../components/EventTimeline';
import { LedgerTable } from '../components/LedgerTable';
import { RefundDialog } from '../components/RefundDialog';
import { StatusBadge } from '../components/StatusBadge';
import { dateTime, money } from '../format';
import { useSession } from '../session';
import { useApi } from '../useApi';
import { ScrollRegion } from '../components/ScrollRegion';
import { Fact } from '../components/Fact';

export function PaymentPage() {
  const { id = '' } = useParams();
  const { session, can } = useSession();
  const { data, error, reload } = useApi<PaymentDetail>(`/payments/${encodeURIComponent(id)}`, session?.mode);
  const [opened, { open, close }] = useDisclosure();
  const p = data?.payment;
  return (
    <Stack>
      <Anchor component={Link} to="/payments">
        ← Payments
      </Anchor>
      {error && <Alert color="red">{error}</Alert>}
      {p && data && (
        <>
          <Group justify="space-between">
            <Title order={2}>Payment {p.reference}</Title>
            {can('refunds.create') && data.refundable > 0 && <Button onClick={open}>Refund</Button>}
          </Group>
          <Card withBorder>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
              <Fact label="Amount">{money(p.amount, p.currency)}</Fact>
              <Fact label="Fees">{money(p.charges, p.currency)}</Fact>
              <Fact label="Total paid">{money(p.total, p.currency)}</Fact>
              <Fact label="Status">
                <StatusBadge status={p.status} />
              </Fact>
              <Fact label="Refunded">{money(p.amount_refunded, p.currency)}</Fact>
              <Fact label="Customer">{p.email}</Fact>
              <Fact label="Method">{p.payment_method_code ?? p.payment_method_type ?? '—'}</Fact>
              <Fact label="Transaction id">{p.transaction_id}</Fact>
              <Fact label="Created">{dateTime(p.date_created)}</Fact>
              <Fact label="Last change">{dateTime(p.date_updated)}</Fact>
            </SimpleGrid>
          </Card>
          <Title order={3} size="h4">
            Refunds
          </Title>
          {data.refunds.length === 0 ? (
            <Text c="dark.6">No refunds.</Text>
          ) : (
            <ScrollRegion label="Refunds">
              <Table miw={640} captionSide="top">
                <Table.Caption c="dark.8">Refunds of this payment, oldest first</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Refund</Table.Th>
                    <Table.Th>Amount</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Reason</Table.Th>
                    <Table.Th>Created</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.refunds.map((r) => (
                    <Table.Tr key={r.refund_id}>
                      <Table.Td>{r.refund_id}</Table.Td>
                      <Table.Td>{money(r.amount, r.currency)}</Table.Td>
                      <Table.Td>
                        <StatusBadge status={r.status} />
                      </Table.Td>
                      <Table.Td>{r.reason ?? '—'}</Table.Td>
                      <Table.Td>{dateTime(r.date_created)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollRegion>
          )}
          <Title order={3} size="h4">
            Split ledger entries
          </Title>
          {data.split_entries === null ? (
            <Text c="dark.6">The split ledger could not be read just now; reload to try again.</Text>
          ) : (
            <LedgerTable
              entries={data.split_entries}
              caption="What this payment owes partners (and refunds took back), oldest first"
              businessId={session?.user.business_id ?? 0}
              withoutPayment
            />
          )}
          <Title order={3} size="h4">
            Timeline and webhooks
          </Title>
          <EventTimeline events={data.events} />
          <RefundDialog
            payment={p}
            refundable={data.refundable}
            opened={opened}
            onClose={close}
            onDone={() => {
              close();
              reload();
            }}
          />
        </>
      )}
    </Stack>
  );
}
