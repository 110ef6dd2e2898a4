import { Alert, Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { LinkList } from '@payments/contracts/dashboard-api';
import { ApiError, api, query } from '../api';
import { CreateLinkDialog } from '../components/CreateLinkDialog';
import { EditLinkDialog } from '../components/EditLinkDialog';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { Pager, useCursor } from '../components/Pager';
import { DataTable } from '../components/DataTable';
import { dateTime, money } from '../format';
import { splitText } from '../linkForm';
import type { PaymentLink } from '../money-api';
import { useSession } from '../session';
import { useApi } from '../useApi';

/** Payment links: create one (with splits), page through them newest first, edit or deactivate one. */
export function LinksPage() {
  const { session, can } = useSession();
  const [cursor, setCursor] = useCursor(session?.mode);
  const { data, error, reload } = useApi<LinkList>(`/links${query({ ...cursor })}`, session?.mode);
  const [creating, setCreating] = useState(false);
  const [ending, setEnding] = useState<PaymentLink | null>(null);
  const [editing, setEditing] = useState<PaymentLink | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const links = data?.links ?? [];
  const writer = can('links.write');

  const deactivate = async (link: PaymentLink) => {
    setEnding(null);
    try {
      await api('POST', `/links/${link.payment_link_id}/deactivate`);
      setNotice({ ok: true, text: `Link “${link.description}” deactivated: its page no longer takes payments.` });
      reload();
    } catch (err) {
      setNotice({ ok: false, text: err instanceof ApiError ? err.message : 'Could not reach the server.' });
    }
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Payment links</Title>
        {writer && <Button onClick={() => setCreating(true)}>New link</Button>}
      </Group>
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
      {data && links.length === 0 && <Text c="dark.6">No payment links in this mode.</Text>}
      {links.length > 0 && (
        <DataTable
          label="Payment links"
          caption="Payment links, newest first"
          minWidth={820}
          rows={links}
          rowKey={(l) => l.payment_link_id}
          columns={[
            { header: 'Description', cell: (l) => l.description },
            { header: 'Amount', cell: (l) => money(l.amount, l.currency) },
            {
              header: 'Splits',
              cell: (l) =>
                l.splits.length === 0
                  ? '—'
                  : l.splits.map((s) => (
                      <div key={`${s.business_id}-${s.type}-${s.value}`}>{splitText(s, l.currency, money)}</div>
                    )),
            },
            {
              header: 'Status',
              cell: (l) => (
                <Badge color={l.active ? '#1b5e20' : '#424242'} variant="filled">
                  {l.active ? 'active' : 'inactive'}
                </Badge>
              ),
            },
            { header: 'Created', cell: (l) => dateTime(l.date_created) },
            {
              header: 'Page',
              cell: (l) => (
                <Anchor
                  href={l.hosted_payment_link}
                  target="_blank"
                  rel="noreferrer"
                  aria-label={`Open the payment page of ${l.description}`}
                >
                  Open
                </Anchor>
              ),
            },
            {
              header: 'Actions',
              visuallyHiddenHeader: true,
              cell: (l) =>
                writer && (
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Edit ${l.description}`}
                      onClick={() => setEditing(l)}
                    >
                      Edit
                    </Button>
                    {l.active && (
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Deactivate ${l.description}`}
                        onClick={() => setEnding(l)}
                      >
                        Deactivate
                      </Button>
                    )}
                  </Group>
                ),
            },
          ]}
        />
      )}
      {data && (
        <Pager
          label="Payment links"
          cursor={cursor}
          ids={links.map((l) => l.payment_link_id)}
          hasMore={data.has_more}
          onChange={setCursor}
        />
      )}
      <CreateLinkDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(link) => {
          setCreating(false);
          setNotice({ ok: true, text: `Link “${link.description}” created: ${link.hosted_payment_link}` });
          setCursor({});
          reload();
        }}
      />
      <EditLinkDialog
        link={editing}
        onClose={() => setEditing(null)}
        onSaved={(link) => {
          setEditing(null);
          setNotice({ ok: true, text: `Link “${link.description}” saved.` });
          reload();
        }}
      />
      <ConfirmDialog
        opened={ending !== null}
        title="Deactivate this link?"
        action="Deactivate link"
        busy={false}
        onConfirm={() => ending && void deactivate(ending)}
        onClose={() => setEnding(null)}
      >
        “{ending?.description}” will stop taking payments. This cannot be undone.
      </ConfirmDialog>
    </Stack>
  );
}
