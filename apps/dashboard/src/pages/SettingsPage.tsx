import { Alert, Anchor, Badge, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../api';
import { problemText, type ProviderItem, type Settings } from '../api-types';
import { ConnectionDialog } from '../components/ConnectionDialog';
import { RedirectOrigins } from '../components/RedirectOrigins';
import { dateTime } from '../format';
import { useSession } from '../session';
import { useApi } from '../useApi';

/** Redirect origins, provider connections (status only, never a credential) and, for owners, user management. */
export function SettingsPage() {
  const { session, can } = useSession();
  const { data, error, reload } = useApi<Settings>('/settings', session?.mode);
  const [connecting, setConnecting] = useState<ProviderItem | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const owner = can('connections.write');
  if (!session) return null;

  const remove = async (p: ProviderItem) => {
    if (
      !window.confirm(
        `Remove the ${p.provider} connection in ${session.mode} mode? Its payments then use the platform's account.`,
      )
    )
      return;
    try {
      await api('DELETE', `/settings/connections/${p.provider}?mode=${session.mode}`);
      setNotice({ ok: true, text: `${p.provider} connection removed (${session.mode} mode).` });
    } catch (err) {
      setNotice({ ok: false, text: problemText(err) });
    }
    reload();
  };

  return (
    <Stack>
      <Title order={2}>Settings</Title>
      {error && <Alert color="red">{error}</Alert>}
      {notice && (
        <Alert
          color={notice.ok ? 'green' : 'red'}
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setNotice(null)}
        >
          {notice.text}
        </Alert>
      )}
      {data && (
        <>
          <Title order={3} size="h4">
            Redirect origins
          </Title>
          <RedirectOrigins origins={data.redirect_origins} editable={owner} onSaved={reload} />
          <Title order={3} size="h4">
            Provider connections ({session.mode} mode)
          </Title>
          {data.providers.map((p) => (
            <Card withBorder key={p.provider} aria-label={`${p.provider} connection`} component="section">
              <Group justify="space-between" align="start">
                <Stack gap={4}>
                  <Group gap="xs">
                    <Text fw={600}>{p.provider}</Text>
                    <Badge color={p.connection ? '#1b5e20' : '#424242'} variant="filled">
                      {p.connection ? 'Connected' : 'Not connected'}
                    </Badge>
                  </Group>
                  {p.connection && (
                    <Text size="sm">
                      Account {p.connection.account} · {p.connection.methods.join(', ')} · since{' '}
                      {dateTime(p.connection.date_updated)}
                    </Text>
                  )}
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    Notification URL: <Code>{p.notification_url}</Code>
                  </Text>
                </Stack>
                {owner && (
                  <Group gap="xs">
                    <Button variant="default" onClick={() => setConnecting(p)}>
                      {p.connection ? `Replace ${p.provider} credentials` : `Connect ${p.provider}`}
                    </Button>
                    {p.connection && (
                      <Button variant="default" color="red.9" onClick={() => void remove(p)}>
                        Remove {p.provider}
                      </Button>
                    )}
                  </Group>
                )}
              </Group>
            </Card>
          ))}
          {can('users.read') && (
            <Text>
              People and roles:{' '}
              <Anchor component={Link} to="/users">
                manage users
              </Anchor>{' '}
              (change a role, remove someone).
            </Text>
          )}
        </>
      )}
      <ConnectionDialog
        provider={connecting}
        mode={session.mode}
        onClose={() => setConnecting(null)}
        onDone={(text) => {
          setConnecting(null);
          setNotice({ ok: true, text });
          reload();
        }}
      />
    </Stack>
  );
}
