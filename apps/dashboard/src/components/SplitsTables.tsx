import { Anchor, Card, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { dateTime, money } from '../format';
import { fromSpecDate, partnerLabel, type CurrencyTotal, type Invoice, type LedgerSummary } from '../money-api';
import { DataTable } from './DataTable';
import { ScrollRegion } from './ScrollRegion';
import { StatusBadge } from './StatusBadge';

function Totals({ title, totals }: { title: string; totals: CurrencyTotal[] }) {
  return (
    <Card withBorder>
      <Title order={4} size="h5">
        {title}
      </Title>
      {totals.length === 0 ? (
        <Text c="dark.6">Nothing.</Text>
      ) : (
        totals.map((t) => (
          <Text key={t.currency} fw={600} size="lg">
            {money(t.total, t.currency)}
          </Text>
        ))
      )}
    </Card>
  );
}

/** What is owed over entries not yet settled: per currency, and per partner business. */
export function SummarySection({ data }: { data: LedgerSummary }) {
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <Totals title="Owed to you" totals={data.summary.owed_to_you} />
        <Totals title="You owe" totals={data.summary.you_owe} />
      </SimpleGrid>
      {data.by_counterparty.length > 0 && (
        <ScrollRegion label="Owed per partner">
          <Table miw={480} striped captionSide="top">
            <Table.Caption c="dark.8">Owed per partner, not yet settled</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Partner</Table.Th>
                <Table.Th>Owed to you</Table.Th>
                <Table.Th>You owe</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.by_counterparty.map((c) => (
                <Table.Tr key={`${c.business_id}-${c.currency}`}>
                  <Table.Td>{partnerLabel(c.business_id, data.business_names)}</Table.Td>
                  <Table.Td>{money(c.owed_to_you, c.currency)}</Table.Td>
                  <Table.Td>{money(c.you_owe, c.currency)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollRegion>
      )}
    </Stack>
  );
}

export function InvoicesTable({ invoices, businessId }: { invoices: Invoice[]; businessId: number }) {
  if (invoices.length === 0)
    return <Text c="dark.6">No settlement invoices yet: the weekly settlement makes them.</Text>;
  return (
    <DataTable
      label="Settlement invoices"
      caption="Settlement invoices, newest first"
      minWidth={720}
      rows={invoices}
      rowKey={(i) => i.invoice_reference}
      columns={[
        {
          header: 'Invoice',
          cell: (i) => (
            <Anchor component={Link} to={`/splits/invoices/${i.invoice_reference}`}>
              {i.invoice_reference}
            </Anchor>
          ),
        },
        {
          header: 'Partner',
          cell: (i) =>
            partnerLabel(i.creditor_business_id === businessId ? i.debtor_business_id : i.creditor_business_id),
        },
        { header: 'Direction', cell: (i) => (i.creditor_business_id === businessId ? 'Owed to you' : 'You owe') },
        { header: 'Amount', cell: (i) => money(i.amount, i.currency) },
        { header: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
        { header: 'Period end', cell: (i) => dateTime(fromSpecDate(i.period_end)) },
      ]}
    />
  );
}
