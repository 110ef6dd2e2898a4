import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { LedgerTable } from '../components/LedgerTable';
import { StatusBadge } from '../components/StatusBadge';
import { dateTime, money } from '../format';
import type { InvoiceDetail } from '@payments/contracts/dashboard-api';
import { fromSpecDate, partnerLabel } from '../money-api';
import { useSession } from '../session';
import { useApi } from '../useApi';
import { Fact } from '../components/Fact';

/** One settlement invoice of the business: who pays whom how much, and the ledger entries it nets. */
export function InvoicePage() {
  const { reference = '' } = useParams();
  const { session } = useSession();
  const businessId = session?.user.business_id ?? 0;
  // Entries come a page of 100 at a time (an invoice may net tens of thousands); the set never
  // changes, so an offset pages it.
  const [skip, setSkip] = useState(0);
  const { data, error } = useApi<InvoiceDetail>(
    `/splits/invoices/${encodeURIComponent(reference)}${skip > 0 ? `?skip=${skip}` : ''}`,
    session?.mode,
  );
  const i = data?.invoice;
  return (
    <Stack>
      <Anchor component={Link} to="/splits">
        ← Splits
      </Anchor>
      {error && <Alert color="red">{error}</Alert>}
      {i && data && (
        <>
          <Title order={2}>Invoice {i.invoice_reference}</Title>
          <Card withBorder>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
              <Fact label="Amount">{money(i.amount, i.currency)}</Fact>
              <Fact label="Direction">
                {i.creditor_business_id === businessId
                  ? `${partnerLabel(i.debtor_business_id, data.business_names)} owes you`
                  : `You owe ${partnerLabel(i.creditor_business_id, data.business_names)}`}
              </Fact>
              <Fact label="Status">
                <StatusBadge status={i.status} />
              </Fact>
              <Fact label="Entries">{i.entry_count}</Fact>
              <Fact label="Period end">{dateTime(fromSpecDate(i.period_end))}</Fact>
              <Fact label="Issued">{dateTime(fromSpecDate(i.date_created))}</Fact>
              <Fact label="Paid">{i.date_paid ? dateTime(fromSpecDate(i.date_paid)) : '—'}</Fact>
            </SimpleGrid>
          </Card>
          <Title order={3} size="h4">
            Ledger entries
          </Title>
          <LedgerTable
            entries={data.ledger_entries}
            caption={`The entries this invoice nets, oldest first (from entry ${skip + 1})`}
            businessId={businessId}
            names={data.business_names}
          />
          {(skip > 0 || data.has_more_entries) && (
            <Group justify="flex-end" gap="xs" role="group" aria-label="Ledger entries pages">
              <Button
                variant="default"
                size="xs"
                disabled={skip === 0}
                onClick={() => setSkip(Math.max(0, skip - 100))}
              >
                Earlier
              </Button>
              <Button variant="default" size="xs" disabled={!data.has_more_entries} onClick={() => setSkip(skip + 100)}>
                Later
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
