import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ApiError, api } from '../api';
import { dateTime } from '../format';
import { fromSpecDate, partnerLabel, type SplitConfig } from '../money-api';
import { useSession } from '../session';
import { configShareText, shareText } from '../splitConfigForm';
import { ConfirmDialog } from './ConfirmDialog';
import { DataTable } from './DataTable';
import { SplitConfigDialog } from './SplitConfigDialog';

interface Props {
  configs: SplitConfig[];
  /** After a change: the page reloads the list (back to its first page after a new config). */
  onChanged: (created: boolean) => void;
}

/**
 * The split configs of the mode, and for owners (splits.write) New split config, Edit and
 * Deactivate (after a confirmation): the same rules and RPCs as /v1/splits/config.
 */
export function SplitConfigsSection({ configs, onChanged }: Props) {
  const { can } = useSession();
  const writer = can('splits.write');
  const [editing, setEditing] = useState<SplitConfig | null | 'new'>(null);
  const [ending, setEnding] = useState<SplitConfig | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const name = (c: SplitConfig) => `${shareText(c)} to ${partnerLabel(c.partner_business_id)}`;

  const deactivate = async (c: SplitConfig) => {
    setBusy(true);
    try {
      await api('POST', `/splits/configs/${c.public_id}/deactivate`);
      setNotice({
        ok: true,
        text: `Split config “${name(c)}” deactivated: payments made from now on get no split from it.`,
      });
      onChanged(false);
    } catch (err) {
      setNotice({ ok: false, text: err instanceof ApiError ? err.message : 'Could not reach the server.' });
    } finally {
      setBusy(false);
      setEnding(null);
    }
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3} size="h4">
          Split configs
        </Title>
        {writer && (
          <Button size="sm" onClick={() => setEditing('new')}>
            New split config
          </Button>
        )}
      </Group>
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
      {configs.length === 0 ? (
        <Text c="dark.6">No split configs in this mode.</Text>
      ) : (
        <DataTable
          label="Split configs"
          caption="Split configs, newest first"
          minWidth={writer ? 980 : 760}
          rows={configs}
          rowKey={(c) => c.public_id}
          columns={[
            { header: 'Partner', cell: (c) => partnerLabel(c.partner_business_id) },
            { header: 'Share', cell: (c) => configShareText(c) },
            { header: 'Role', cell: (c) => c.split_role },
            { header: 'Description', cell: (c) => c.description ?? '—' },
            {
              header: 'Status',
              cell: (c) => (
                <Badge color={c.is_active ? '#1b5e20' : '#424242'} variant="filled" miw="max-content">
                  {c.is_active ? 'active' : 'inactive'}
                </Badge>
              ),
            },
            { header: 'Created', cell: (c) => dateTime(fromSpecDate(c.date_created)) },
            ...(writer
              ? [
                  {
                    header: 'Actions',
                    visuallyHiddenHeader: true,
                    cell: (c: SplitConfig) =>
                      c.is_active && (
                        <Group gap="xs" wrap="nowrap">
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={`Edit split config ${name(c)}`}
                            onClick={() => setEditing(c)}
                          >
                            Edit
                          </Button>
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={`Deactivate split config ${name(c)}`}
                            onClick={() => setEnding(c)}
                          >
                            Deactivate
                          </Button>
                        </Group>
                      ),
                  },
                ]
              : []),
          ]}
        />
      )}
      <SplitConfigDialog
        opened={editing !== null}
        config={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onSaved={(c, created) => {
          setEditing(null);
          setNotice({
            ok: true,
            text:
              `Split config (${configShareText(c)}) ${created ? 'created' : 'saved'}: ` +
              'it applies to payments made from now on.',
          });
          onChanged(created);
        }}
      />
      <ConfirmDialog
        opened={ending !== null}
        title="Deactivate this split config?"
        action="Deactivate split config"
        busy={busy}
        onConfirm={() => ending && void deactivate(ending)}
        onClose={() => setEnding(null)}
      >
        Payments made from now on get no split to {ending ? partnerLabel(ending.partner_business_id) : ''} from it; what
        earlier payments owe stays owed. This cannot be undone.
      </ConfirmDialog>
    </Stack>
  );
}
