import { Anchor, Badge, Table, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { dateTime, money } from '../format';
import { fromSpecDate, partnerLabel, type BusinessNames, type LedgerEntry } from '../money-api';
import { ScrollRegion } from './ScrollRegion';
import { StatusBadge } from './StatusBadge';

interface Props {
  entries: LedgerEntry[];
  caption: string;
  /** The signed-in business: the other party of each entry is shown, and its payments link to their page. */
  businessId: number;
  /** Leave out the payment column (on a payment's own page). */
  withoutPayment?: boolean;
  /** Partner names by id (the answer's business_names); a partner without one is shown by id. */
  names?: BusinessNames;
}

/** Split ledger entries: who owes whom how much (minor units shown in the currency), and where settlement is. */
export function LedgerTable({ entries, caption, businessId, withoutPayment = false, names }: Props) {
  if (entries.length === 0) return <Text c="dark.6">No split ledger entries.</Text>;
  return (
    <ScrollRegion label={caption}>
      <Table miw={760} striped captionSide="top">
        <Table.Caption c="dark.8">{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {!withoutPayment && <Table.Th>Payment</Table.Th>}
            <Table.Th>Kind</Table.Th>
            <Table.Th>Partner</Table.Th>
            <Table.Th>Direction</Table.Th>
            <Table.Th>Amount</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Invoice</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => {
            const owedToUs = e.creditor_business_id === businessId;
            const partner = owedToUs ? e.debtor_business_id : e.creditor_business_id;
            return (
              <Table.Tr key={e.public_id}>
                {!withoutPayment && (
                  <Table.Td>
                    {/* Only the debtor's own payments have a page in its dashboard. */}
                    {owedToUs ? (
                      e.transaction_public_id
                    ) : (
                      <Anchor component={Link} to={`/payments/${e.transaction_public_id}`}>
                        {e.transaction_public_id}
                      </Anchor>
                    )}
                  </Table.Td>
                )}
                <Table.Td>{e.kind === 'split' ? 'Split' : 'Refund reversal'}</Table.Td>
                <Table.Td>{partnerLabel(partner, names)}</Table.Td>
                <Table.Td>
                  <Badge color={owedToUs ? '#1b5e20' : '#8a3a00'} variant="filled">
                    {owedToUs ? 'Owed to you' : 'You owe'}
                  </Badge>
                </Table.Td>
                <Table.Td>{money(e.amount, e.currency)}</Table.Td>
                <Table.Td>
                  <StatusBadge status={e.status} />
                </Table.Td>
                <Table.Td>
                  {e.invoice_reference ? (
                    <Anchor component={Link} to={`/splits/invoices/${e.invoice_reference}`}>
                      {e.invoice_reference}
                    </Anchor>
                  ) : (
                    '—'
                  )}
                </Table.Td>
                <Table.Td>{dateTime(fromSpecDate(e.date_created))}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}
