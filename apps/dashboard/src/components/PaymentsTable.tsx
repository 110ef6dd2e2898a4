import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { Payment } from '../api';
import { dateTime, money } from '../format';
import { StatusBadge } from './StatusBadge';
import { ScrollRegion } from './ScrollRegion';

/** Payments as a table; on a phone it scrolls sideways rather than squeezing the columns. */
export function PaymentsTable({ payments, caption }: { payments: Payment[]; caption: string }) {
  if (payments.length === 0) return <Text c="dark.6">No payments.</Text>;
  return (
    <ScrollRegion label={caption}>
      <Table miw={640} striped highlightOnHover captionSide="top">
        <Table.Caption c="dark.8">{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Reference</Table.Th>
            <Table.Th>Amount</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Customer</Table.Th>
            <Table.Th>Method</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payments.map((p) => (
            <Table.Tr key={p.transaction_id}>
              <Table.Td>
                <Anchor component={Link} to={`/payments/${p.transaction_id}`}>
                  {p.reference}
                </Anchor>
              </Table.Td>
              <Table.Td>{money(p.amount, p.currency)}</Table.Td>
              <Table.Td>
                <StatusBadge status={p.status} />
              </Table.Td>
              <Table.Td>{p.email}</Table.Td>
              <Table.Td>{p.payment_method_code ?? p.payment_method_type ?? '—'}</Table.Td>
              <Table.Td>{dateTime(p.date_created)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}
