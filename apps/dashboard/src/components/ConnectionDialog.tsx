import { Alert, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import type { ConnectionAnswer } from '@payments/contracts/dashboard-api';
import { api, type Mode } from '../api';
import { problemText, type ProviderItem } from '../api-types';

/** Sets (or replaces) a provider connection's credentials in the page's mode; they are never shown again. */
export function ConnectionDialog({
  provider,
  mode,
  onDone,
  onClose,
}: {
  provider: ProviderItem | null;
  mode: Mode;
  onDone: (text: string) => void;
  onClose: () => void;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setValues({});
    setError(null);
  }, [provider]);
  if (!provider) return <Modal opened={false} onClose={onClose} />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = Object.fromEntries(provider.fields.map((f) => [f.name, (values[f.name] ?? '').trim()]));
      const r = await api<ConnectionAnswer>('PUT', `/settings/connections/${provider.provider}?mode=${mode}`, body);
      onDone(`${provider.provider} is connected in ${mode} mode (${r.connection.account}).`);
    } catch (err) {
      setError(problemText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={`Connect ${provider.provider} (${mode} mode)`}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Text size="sm">
            The credentials are stored encrypted and never shown again. Sending them again replaces them.
          </Text>
          {provider.fields.map((f) => {
            const Input = f.secret ? PasswordInput : TextInput;
            return (
              <Input
                key={f.name}
                label={f.name}
                required
                withAsterisk={false}
                autoComplete="off"
                value={values[f.name] ?? ''}
                onChange={(e) => setValues({ ...values, [f.name]: e.currentTarget.value })}
              />
            );
          })}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save credentials
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
