import { AppShell, Badge, Burger, Button, Group, NavLink, SegmentedControl, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { Mode } from './api';
import { useSession } from './session';

const PAGES = [
  { to: '/', label: 'Overview', action: 'payments.read' },
  { to: '/payments', label: 'Payments', action: 'payments.read' },
  { to: '/links', label: 'Payment links', action: 'links.read' },
  { to: '/splits', label: 'Splits', action: 'splits.read' },
  { to: '/webhooks', label: 'Webhooks', action: 'webhooks.read' },
  { to: '/events', label: 'Events', action: 'events.read' },
  { to: '/keys', label: 'API keys', action: 'keys.read' },
  { to: '/settings', label: 'Settings', action: 'settings.read' },
  { to: '/users', label: 'Users', action: 'users.read' },
  { to: '/audit', label: 'Audit log', action: 'audit.read' },
];

/** Header (business, test/live switch, sign out) and navigation; the navigation folds away on a phone. */
export function Layout({ children }: { children: ReactNode }) {
  const { session, setMode, signOut, can } = useSession();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  if (!session) return null;
  const active = (to: string) => (to === '/' ? location.pathname === '/' : location.pathname.startsWith(to));
  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <Title order={1} size="h4" lineClamp={1}>
              {session.user.business_name}
            </Title>
            {session.mode === 'test' && (
              <Badge color="#8a3a00" variant="filled" visibleFrom="xs">
                Test data
              </Badge>
            )}
          </Group>
          <Group gap="sm" wrap="nowrap">
            <SegmentedControl
              aria-label="Data mode"
              size="xs"
              value={session.mode}
              onChange={(v) => void setMode(v as Mode)}
              data={[
                { value: 'test', label: 'Test' },
                { value: 'live', label: 'Live' },
              ]}
            />
            <Button variant="default" size="xs" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Pages">
        {PAGES.filter((p) => can(p.action)).map((p) => (
          <NavLink
            key={p.to}
            component={Link}
            to={p.to}
            label={p.label}
            active={active(p.to)}
            variant="filled"
            onClick={close}
          />
        ))}
        <Text size="sm" c="dark.6" mt="auto">
          {session.user.email} ({session.user.role})
        </Text>
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
