import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import type { EndpointTested, SecretRolled } from '@payments/contracts/dashboard-api';
import { api, type Endpoint } from '../api';
import { problemText } from '../api-types';
import { ConfirmDialog } from './ConfirmDialog';

export interface Notice {
  ok: boolean;
  text: string;
}

/**
 * What a developer or owner does with one endpoint: edit it, disable or enable it, send a test
 * ping, roll its signing secret (the new one is handed to `onSecret`), recover failed deliveries,
 * delete it.
 */
export function EndpointActions({
  endpoint,
  onEdit,
  onNotice,
  onSecret,
  onChanged,
  onDeleted,
}: {
  endpoint: Endpoint;
  onEdit: () => void;
  onNotice: (n: Notice) => void;
  onSecret: (secret: string, previousExpires: string | null) => void;
  onChanged: () => void;
  /** After a delete: its delivery log is not asked for again (it would be a 404). */
  onDeleted: () => void;
}) {
  const [confirmRoll, setConfirmRoll] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const base = `/webhooks/${endpoint.id}`;

  const run = async (name: string, work: () => Promise<Notice | null>, after = onChanged) => {
    setBusy(name);
    try {
      const n = await work();
      if (n) onNotice(n);
    } catch (err) {
      onNotice({ ok: false, text: problemText(err) });
    } finally {
      setBusy(null);
      after();
    }
  };

  const toggle = () =>
    run('toggle', async () => {
      await api('PATCH', base, { is_active: !endpoint.is_active });
      return {
        ok: true,
        text: endpoint.is_active
          ? 'The endpoint is disabled: nothing is sent to it until it is enabled again.'
          : 'The endpoint is enabled again.',
      };
    });
  const ping = () =>
    run('ping', async () => {
      const r = await api<EndpointTested>('POST', `${base}/test`);
      if (r.error === null)
        return { ok: true, text: `Test ping delivered: HTTP ${r.status_code} in ${r.duration_ms} ms.` };
      return { ok: false, text: `Test ping failed: ${r.status_code !== null ? `HTTP ${r.status_code}` : r.error}.` };
    });
  const roll = () =>
    run('roll', async () => {
      setConfirmRoll(false);
      const r = await api<SecretRolled>('POST', `${base}/secret/roll`);
      onSecret(r.secret, r.previous_secret_expires_at);
      return null;
    });
  const remove = () =>
    run(
      'delete',
      async () => {
        setConfirmDelete(false);
        await api('DELETE', base);
        return { ok: true, text: `Endpoint ${endpoint.url} deleted: nothing more is sent to it.` };
      },
      onDeleted,
    );
  const recover = () =>
    run('recover', async () => {
      await api('POST', `${base}/recover`, { since: new Date(Date.now() - 86_400_000).toISOString() });
      return { ok: true, text: 'Failed deliveries of the last 24 hours were queued again.' };
    });

  return (
    <>
      <Group gap="xs">
        <Button variant="default" onClick={onEdit}>
          Edit
        </Button>
        <Button variant="default" loading={busy === 'toggle'} onClick={() => void toggle()}>
          {endpoint.is_active ? 'Disable' : 'Enable'}
        </Button>
        <Button variant="default" loading={busy === 'ping'} onClick={() => void ping()}>
          Send test ping
        </Button>
        <Button variant="default" onClick={() => setConfirmRoll(true)}>
          Roll signing secret
        </Button>
        {endpoint.is_active && (
          <Button variant="default" loading={busy === 'recover'} onClick={() => void recover()}>
            Recover failed (24 h)
          </Button>
        )}
        <Button variant="default" color="red.9" onClick={() => setConfirmDelete(true)}>
          Delete
        </Button>
      </Group>
      <ConfirmDialog
        opened={confirmDelete}
        title="Delete the endpoint"
        action="Delete endpoint"
        busy={busy === 'delete'}
        onConfirm={() => void remove()}
        onClose={() => setConfirmDelete(false)}
      >
        Nothing more is sent to {endpoint.url}, and its deliveries still waiting are cancelled. This cannot be undone;
        to pause it instead, disable it.
      </ConfirmDialog>
      <ConfirmDialog
        opened={confirmRoll}
        title="Roll the signing secret"
        action="Roll secret"
        busy={busy === 'roll'}
        onConfirm={() => void roll()}
        onClose={() => setConfirmRoll(false)}
      >
        A new secret signs every webhook from now on. For a while the current secret signs them too, so your endpoint
        keeps accepting them until it has the new one.
      </ConfirmDialog>
    </>
  );
}
