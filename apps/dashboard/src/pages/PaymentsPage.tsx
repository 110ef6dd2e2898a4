import { Alert, Anchor, Button, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { PaymentList } from '@payments/contracts/dashboard-api';
import { query } from '../api';
import { PaymentsTable } from '../components/PaymentsTable';
import { useSession } from '../session';
import { useApi } from '../useApi';

const STATUSES = ['pending', 'processing', 'success', 'failed'];
const METHODS = ['ecocash', 'innbucks', 'zimswitch', 'dpo', 'ozow'];
const FILTERS = ['status', 'method', 'from', 'to', 'q'] as const;

/** Payments with filters in the URL (a filtered list can be bookmarked), cursor paging and CSV export. */
export function PaymentsPage() {
  const { session } = useSession();
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Record<
    (typeof FILTERS)[number],
    string
  >;
  const [search, setSearch] = useState(filters.q);
  const cursor = { starting_after: params.get('starting_after'), ending_before: params.get('ending_before') };
  const { data, error } = useApi<PaymentList>(`/payments${query({ ...filters, ...cursor })}`, session?.mode);

  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    // A new filter starts again from the newest payment.
    if (!('starting_after' in changes) && !('ending_before' in changes)) {
      next.delete('starting_after');
      next.delete('ending_before');
    }
    setParams(next);
  };
  const payments = data?.payments ?? [];
  const forward = cursor.ending_before ? true : (data?.has_more ?? false);
  const back = Boolean(cursor.starting_after) || (Boolean(cursor.ending_before) && (data?.has_more ?? false));

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Payments</Title>
        <Anchor href={`/dashboard/api/payments/export.csv${query(filters)}`} download>
          Export CSV
        </Anchor>
      </Group>
      <Group align="end" gap="sm">
        <Select
          label="Status"
          placeholder="Any"
          clearable
          data={STATUSES}
          value={filters.status || null}
          onChange={(v) => set({ status: v })}
          w={150}
        />
        <Select
          label="Method"
          placeholder="Any"
          clearable
          data={METHODS}
          value={filters.method || null}
          onChange={(v) => set({ method: v })}
          w={150}
        />
        <TextInput
          label="From"
          type="date"
          value={filters.from}
          onChange={(e) => set({ from: e.currentTarget.value })}
          w={160}
        />
        <TextInput
          label="To"
          type="date"
          value={filters.to}
          onChange={(e) => set({ to: e.currentTarget.value })}
          w={160}
        />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            set({ q: search.trim() });
          }}
        >
          <Group align="end" gap="xs">
            <TextInput
              label="Reference or e-mail"
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={220}
            />
            <Button type="submit" variant="default">
              Search
            </Button>
          </Group>
        </form>
      </Group>
      {error && <Alert color="red">{error}</Alert>}
      <PaymentsTable payments={payments} caption="Payments, newest first" />
      <Group justify="flex-end">
        <Button
          variant="default"
          disabled={!back || payments.length === 0}
          onClick={() => set({ ending_before: payments[0]?.transaction_id, starting_after: null })}
        >
          Newer
        </Button>
        <Button
          variant="default"
          disabled={!forward || payments.length === 0}
          onClick={() => set({ starting_after: payments[payments.length - 1]?.transaction_id, ending_before: null })}
        >
          Older
        </Button>
      </Group>
    </Stack>
  );
}
