import { Alert, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Overview } from '@payments/contracts/dashboard-api';
import type { DayTotals } from '../api';
import { PaymentsTable } from '../components/PaymentsTable';
import { money } from '../format';
import { useSession } from '../session';
import { useApi } from '../useApi';

/** The currency with the most successful volume: the chart shows that one. */
function mainCurrency(days: DayTotals[]): string {
  const sums = new Map<string, number>();
  for (const d of days) for (const [c, v] of Object.entries(d.volume)) sums.set(c, (sums.get(c) ?? 0) + v);
  return [...sums].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'USD';
}

export function OverviewPage() {
  const { session } = useSession();
  const { data, error } = useApi<Overview>('/overview', session?.mode);
  const days = data?.days ?? [];
  const currency = mainCurrency(days);
  const rows = days.map((d) => ({
    day: d.date.slice(5),
    volume: (d.volume[currency] ?? 0) / 100,
    rate: d.payments === 0 ? null : Math.round((d.succeeded / d.payments) * 100),
  }));
  const total = days.reduce((s, d) => s + d.payments, 0);
  const succeeded = days.reduce((s, d) => s + d.succeeded, 0);
  const volume = days.reduce((s, d) => s + (d.volume[currency] ?? 0), 0);
  return (
    <Stack>
      <Title order={2}>Overview</Title>
      {error && <Alert color="red">{error}</Alert>}
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <Card withBorder>
          <Text size="sm" c="dark.6">
            Payments, last 14 days
          </Text>
          <Text fw={700} size="xl">
            {total}
          </Text>
        </Card>
        <Card withBorder>
          <Text size="sm" c="dark.6">
            Success rate
          </Text>
          <Text fw={700} size="xl">
            {total === 0 ? '—' : `${Math.round((succeeded / total) * 100)} %`}
          </Text>
        </Card>
        <Card withBorder>
          <Text size="sm" c="dark.6">
            Volume ({currency})
          </Text>
          <Text fw={700} size="xl">
            {money(volume, currency)}
          </Text>
        </Card>
      </SimpleGrid>
      <Card withBorder>
        <Title order={3} size="h5" mb="sm">
          Volume and success rate by day
        </Title>
        <div
          role="img"
          aria-label={`Chart of successful ${currency} volume and success rate for each of the last 14 days`}
          style={{ width: '100%', height: 260 }}
        >
          <ResponsiveContainer>
            <ComposedChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="day" />
              <YAxis yAxisId="v" />
              <YAxis yAxisId="r" orientation="right" domain={[0, 100]} unit="%" />
              <Tooltip />
              <Legend />
              <Bar
                yAxisId="v"
                dataKey="volume"
                name={`Volume (${currency})`}
                fill="#364fc7"
                isAnimationActive={false}
              />
              <Line
                yAxisId="r"
                dataKey="rate"
                name="Success rate"
                stroke="#2b8a3e"
                connectNulls
                isAnimationActive={false}
              />
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      </Card>
      <Title order={3} size="h4">
        Recent payments
      </Title>
      <PaymentsTable payments={data?.recent ?? []} caption="The latest payments" />
    </Stack>
  );
}
