import { Alert, Stack, Title } from '@mantine/core';
import type { InvoiceList, LedgerPage, LedgerSummary, SplitConfigList } from '@payments/contracts/dashboard-api';
import { query } from '../api';
import { LedgerTable } from '../components/LedgerTable';
import { Pager, useCursor } from '../components/Pager';
import { SplitConfigsSection } from '../components/SplitConfigsSection';
import { InvoicesTable, SummarySection } from '../components/SplitsTables';
import { useSession } from '../session';
import { useApi } from '../useApi';

/**
 * Splits: what is owed (summary), the ledger, split configs (owners create, edit and deactivate
 * them) and settlement invoices, in the session's mode; partners by name where the API gives one.
 */
export function SplitsPage() {
  const { session } = useSession();
  const mode = session?.mode;
  const businessId = session?.user.business_id ?? 0;
  const [ledgerAt, setLedgerAt] = useCursor(mode);
  const [configsAt, setConfigsAt] = useCursor(mode);
  const [invoicesAt, setInvoicesAt] = useCursor(mode);
  const summary = useApi<LedgerSummary>('/splits/ledger/summary', mode);
  const ledger = useApi<LedgerPage>(`/splits/ledger${query({ ...ledgerAt })}`, mode);
  const configs = useApi<SplitConfigList>(`/splits/configs${query({ ...configsAt })}`, mode);
  const invoices = useApi<InvoiceList>(`/splits/invoices${query({ ...invoicesAt })}`, mode);
  const error = summary.error ?? ledger.error ?? configs.error ?? invoices.error;

  return (
    <Stack>
      <Title order={2}>Splits</Title>
      {error && <Alert color="red">{error}</Alert>}
      <Title order={3} size="h4">
        What is owed
      </Title>
      {summary.data && <SummarySection data={summary.data} />}
      <Title order={3} size="h4">
        Ledger
      </Title>
      {ledger.data && (
        <>
          <LedgerTable
            entries={ledger.data.ledger_entries}
            caption={`Ledger entries, newest first (${ledger.data.count} in all)`}
            businessId={businessId}
            names={ledger.data.business_names}
          />
          <Pager
            label="Ledger"
            cursor={ledgerAt}
            ids={ledger.data.ledger_entries.map((e) => e.public_id)}
            hasMore={ledger.data.has_more}
            onChange={setLedgerAt}
          />
        </>
      )}
      {configs.data && (
        <>
          <SplitConfigsSection
            configs={configs.data.split_configs}
            onChanged={(created) => {
              if (created) setConfigsAt({});
              configs.reload();
            }}
          />
          <Pager
            label="Split configs"
            cursor={configsAt}
            ids={configs.data.split_configs.map((c) => c.public_id)}
            hasMore={configs.data.has_more}
            onChange={setConfigsAt}
          />
        </>
      )}
      <Title order={3} size="h4">
        Settlement invoices
      </Title>
      {invoices.data && (
        <>
          <InvoicesTable invoices={invoices.data.invoices} businessId={businessId} />
          <Pager
            label="Settlement invoices"
            cursor={invoicesAt}
            ids={invoices.data.invoices.map((i) => i.invoice_reference)}
            hasMore={invoices.data.has_more}
            onChange={setInvoicesAt}
          />
        </>
      )}
    </Stack>
  );
}
