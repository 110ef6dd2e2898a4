import { Button, Group, Modal, Select, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { ApiError, api, newIdempotencyKey } from '../api';
import { CURRENCIES } from '../linkForm';
import type { SplitConfigAnswer, SplitConfigItem as SplitConfig } from '@payments/contracts/dashboard-api';
import {
  EMPTY_SPLIT_CONFIG,
  newSplitConfigBody,
  splitConfigChanges,
  splitConfigForm,
  type SplitConfigForm,
} from '../splitConfigForm';
import { FormError, type FormProblem } from './FormError';

const TYPES = [
  { value: 'percentage', label: 'Percentage of each payment' },
  { value: 'fixed', label: 'Fixed amount per payment' },
];
const ROLES = [
  { value: 'fee', label: 'Fee: the partner takes this share' },
  { value: 'principal', label: 'Principal: the partner takes the rest' },
];
const muted = { description: { color: 'var(--mantine-color-dark-7)' } };

/** A problem the form finds before sending anything. */
class InvalidForm extends Error {}

interface Props {
  opened: boolean;
  /** The config to edit, or null to create one. */
  config: SplitConfig | null;
  onClose: () => void;
  onSaved: (config: SplitConfig, created: boolean) => void;
}

/**
 * A new split config, or changes to one: the API applies /v1/splits/config's rules. A config's
 * partner and currency never change (deactivate it and create another); new terms apply to
 * payments made from then on.
 */
export function SplitConfigDialog({ opened, config, onClose, onSaved }: Props) {
  const [form, setForm] = useState<SplitConfigForm>(EMPTY_SPLIT_CONFIG);
  const [error, setError] = useState<FormProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(0);
  // One key per config the form describes: pressing Create again after an unknown outcome
  // replays the first attempt instead of making a second config.
  const idempotencyKey = useMemo(() => newIdempotencyKey(), [form, done]);
  const set = (patch: Partial<SplitConfigForm>) => setForm((f) => ({ ...f, ...patch }));

  useEffect(() => {
    if (!opened) return;
    setForm(config ? splitConfigForm(config) : EMPTY_SPLIT_CONFIG);
    setError(null);
  }, [opened, config]);

  const send = async (): Promise<SplitConfig | null> => {
    if (!config) {
      const checked = newSplitConfigBody(form);
      if ('error' in checked) throw new InvalidForm(checked.error);
      return (await api<SplitConfigAnswer>('POST', '/splits/configs', checked.body, { idempotencyKey })).split_config;
    }
    const checked = splitConfigChanges(config, form);
    if ('error' in checked) throw new InvalidForm(checked.error);
    if (Object.keys(checked.body).length === 0) return null;
    return (await api<SplitConfigAnswer>('PATCH', `/splits/configs/${config.public_id}`, checked.body)).split_config;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const saved = await send();
      setDone((n) => n + 1);
      if (saved) onSaved(saved, !config);
      else onClose();
    } catch (err) {
      if (err instanceof ApiError) setError({ text: err.message, fields: err.fields });
      else if (err instanceof InvalidForm) setError({ text: err.message, fields: [] });
      else
        setError({ text: 'Could not reach the server; the change may have been made. Reload to check.', fields: [] });
    } finally {
      setBusy(false);
    }
  };

  const valueLabel = form.split_type === 'percentage' ? 'Share (%)' : `Amount (${form.currency})`;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={config ? 'Edit split config' : 'New split config'}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <FormError error={error} />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput
              label="Partner business id"
              description={config ? 'Cannot change.' : 'The business that gets the split.'}
              styles={muted}
              inputMode="numeric"
              required={!config}
              disabled={!!config}
              value={form.partner_business_id}
              onChange={(e) => set({ partner_business_id: e.currentTarget.value })}
            />
            <Select
              label="Currency"
              description={config ? 'Cannot change.' : 'Payments in this currency get the split.'}
              styles={muted}
              data={CURRENCIES}
              disabled={!!config}
              value={form.currency}
              onChange={(v) => set({ currency: v ?? 'USD' })}
              allowDeselect={false}
              searchable
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Select
              label="Type"
              data={TYPES}
              value={form.split_type}
              allowDeselect={false}
              onChange={(v) => set({ split_type: (v ?? 'percentage') as SplitConfigForm['split_type'] })}
            />
            <TextInput
              label={valueLabel}
              inputMode="decimal"
              required
              value={form.split_value}
              onChange={(e) => set({ split_value: e.currentTarget.value })}
            />
          </SimpleGrid>
          <Select
            label="Role"
            data={ROLES}
            value={form.split_role}
            allowDeselect={false}
            onChange={(v) => set({ split_role: (v ?? 'fee') as SplitConfigForm['split_role'] })}
          />
          <Textarea
            label="Description"
            maxLength={500}
            value={form.description}
            onChange={(e) => set({ description: e.currentTarget.value })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {config ? 'Save' : 'Create split config'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
