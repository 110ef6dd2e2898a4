import { ActionIcon, Button, Group, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useMemo, useState, type FormEvent } from 'react';
import { ApiError, api, newIdempotencyKey } from '../api';
import { CURRENCIES, linkBody, type LinkForm, type SplitRow } from '../linkForm';
import type { LinkAnswer, LinkItem as PaymentLink } from '@payments/contracts/dashboard-api';
import { FormError, type FormProblem } from './FormError';

const MAX_SPLITS = 10;
const EMPTY: LinkForm = { description: '', amount: '', currency: 'USD', splits: [] };

interface Props {
  opened: boolean;
  onClose: () => void;
  onCreated: (link: PaymentLink) => void;
}

/** A new payment link, with splits to partner businesses: the API applies POST /v1/links's rules. */
export function CreateLinkDialog({ opened, onClose, onCreated }: Props) {
  const [form, setForm] = useState<LinkForm>(EMPTY);
  const [error, setError] = useState<FormProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(0);
  // One key per link the form describes: pressing Create again after an unknown outcome replays
  // the first attempt instead of making a second link.
  const idempotencyKey = useMemo(() => newIdempotencyKey(), [form, done]);
  const set = (patch: Partial<LinkForm>) => setForm((f) => ({ ...f, ...patch }));
  const setSplit = (i: number, patch: Partial<SplitRow>) =>
    set({ splits: form.splits.map((s, j) => (j === i ? { ...s, ...patch } : s)) });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = linkBody(form);
    if ('error' in checked) return setError({ text: checked.error, fields: [] });
    setBusy(true);
    setError(null);
    try {
      const r = await api<LinkAnswer>('POST', '/links', checked.body, { idempotencyKey });
      setDone((n) => n + 1);
      setForm(EMPTY);
      onCreated(r.link);
    } catch (err) {
      setError(
        err instanceof ApiError
          ? { text: err.message, fields: err.fields }
          : { text: 'Could not reach the server; the link may have been made. Reload to check.', fields: [] },
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="New payment link"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <FormError error={error} />
          <Textarea
            label="Description"
            description="The customer sees it on the payment page."
            styles={{ description: { color: 'var(--mantine-color-dark-7)' } }}
            maxLength={500}
            required
            value={form.description}
            onChange={(e) => set({ description: e.currentTarget.value })}
          />
          <Group grow align="start">
            <TextInput
              label={`Amount (${form.currency})`}
              inputMode="decimal"
              required
              value={form.amount}
              onChange={(e) => set({ amount: e.currentTarget.value })}
            />
            <Select
              label="Currency"
              data={CURRENCIES}
              value={form.currency}
              onChange={(v) => set({ currency: v ?? 'USD' })}
              allowDeselect={false}
              searchable
            />
          </Group>
          {form.splits.map((s, i) => (
            <Group key={i} align="end" wrap="wrap" gap="xs" role="group" aria-label={`Split ${i + 1}`}>
              <TextInput
                label={`Split ${i + 1} partner business id`}
                inputMode="numeric"
                w={{ base: '100%', xs: 170 }}
                value={s.business_id}
                onChange={(e) => setSplit(i, { business_id: e.currentTarget.value })}
              />
              <Select
                label={`Split ${i + 1} type`}
                w={{ base: '100%', xs: 150 }}
                data={[
                  { value: 'percentage', label: 'Percentage' },
                  { value: 'fixed', label: 'Fixed amount' },
                ]}
                value={s.type}
                allowDeselect={false}
                onChange={(v) => setSplit(i, { type: (v ?? 'percentage') as SplitRow['type'] })}
              />
              <TextInput
                label={
                  s.type === 'percentage' ? `Split ${i + 1} share (%)` : `Split ${i + 1} amount (${form.currency})`
                }
                inputMode="decimal"
                w={{ base: '100%', xs: 150 }}
                value={s.value}
                onChange={(e) => setSplit(i, { value: e.currentTarget.value })}
              />
              <ActionIcon
                variant="default"
                size="lg"
                aria-label={`Remove split ${i + 1}`}
                onClick={() => set({ splits: form.splits.filter((_, j) => j !== i) })}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Group justify="space-between">
            <Button
              variant="default"
              disabled={form.splits.length >= MAX_SPLITS}
              onClick={() => set({ splits: [...form.splits, { business_id: '', type: 'percentage', value: '' }] })}
            >
              Add split
            </Button>
            <Group>
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={busy}>
                Create link
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
