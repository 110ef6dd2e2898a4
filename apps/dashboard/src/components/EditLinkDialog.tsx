import { ActionIcon, Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, api } from '../api';
import { linkEditBody, linkEditForm, type LinkEditForm, type MetadataRow } from '../linkForm';
import type { LinkAnswer, LinkItem as PaymentLink } from '@payments/contracts/dashboard-api';
import { FormError, type FormProblem } from './FormError';

const MAX_KEYS = 50;

interface Props {
  /** The link to edit; null when the dialog is closed. */
  link: PaymentLink | null;
  onClose: () => void;
  onSaved: (link: PaymentLink) => void;
}

/**
 * A link's description and metadata, which is all the API lets change on a link (its amount,
 * currency and splits are fixed: deactivate it and make a new one). Only what changed is sent.
 */
export function EditLinkDialog({ link, onClose, onSaved }: Props) {
  const [form, setForm] = useState<LinkEditForm>({ description: '', metadata: [] });
  const [error, setError] = useState<FormProblem | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!link) return;
    setForm(linkEditForm(link));
    setError(null);
  }, [link]);

  const setRow = (i: number, patch: Partial<MetadataRow>) =>
    setForm((f) => ({ ...f, metadata: f.metadata.map((r, j) => (j === i ? { ...r, ...patch } : r)) }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!link) return;
    const checked = linkEditBody(link, form);
    if ('error' in checked) return setError({ text: checked.error, fields: [] });
    if (Object.keys(checked.body).length === 0) return onClose();
    setBusy(true);
    setError(null);
    try {
      const r = await api<LinkAnswer>('PATCH', `/links/${link.payment_link_id}`, checked.body);
      onSaved(r.link);
    } catch (err) {
      setError(
        err instanceof ApiError
          ? { text: err.message, fields: err.fields }
          : { text: 'Could not reach the server; the change may not have been saved. Reload to check.', fields: [] },
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={link !== null}
      onClose={onClose}
      title="Edit payment link"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <FormError error={error} />
          <Text size="sm" c="dark.7">
            The amount, currency and splits of a link cannot change: deactivate it and make a new one instead.
          </Text>
          <Textarea
            label="Description"
            description="The customer sees it on the payment page."
            styles={{ description: { color: 'var(--mantine-color-dark-7)' } }}
            maxLength={1000}
            required
            value={form.description}
            onChange={(e) => setForm((f) => ({ ...f, description: e.currentTarget.value }))}
          />
          <Text fw={500} size="sm">
            Metadata: notes for your own systems (the customer never sees them)
          </Text>
          {form.metadata.length === 0 && (
            <Text size="sm" c="dark.7">
              None.
            </Text>
          )}
          {form.metadata.map((row, i) => (
            <Group key={i} align="end" wrap="wrap" gap="xs" role="group" aria-label={`Metadata ${i + 1}`}>
              <TextInput
                label={`Metadata ${i + 1} key`}
                maxLength={40}
                w={{ base: '100%', xs: 180 }}
                value={row.key}
                onChange={(e) => setRow(i, { key: e.currentTarget.value })}
              />
              <TextInput
                label={`Metadata ${i + 1} value`}
                maxLength={500}
                w={{ base: '100%', xs: 260 }}
                value={row.value}
                onChange={(e) => setRow(i, { value: e.currentTarget.value })}
              />
              <ActionIcon
                variant="default"
                size="lg"
                aria-label={`Remove metadata ${i + 1}`}
                onClick={() => setForm((f) => ({ ...f, metadata: f.metadata.filter((_, j) => j !== i) }))}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Group justify="space-between">
            <Button
              variant="default"
              disabled={form.metadata.length >= MAX_KEYS}
              onClick={() => setForm((f) => ({ ...f, metadata: [...f.metadata, { key: '', value: '' }] }))}
            >
              Add metadata
            </Button>
            <Group>
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={busy}>
                Save
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
