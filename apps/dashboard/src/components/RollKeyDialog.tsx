import { Alert, Button, Code, CopyButton, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { KeyRolled } from '@payments/contracts/dashboard-api';
import { ApiError, api, type Mode } from '../api';

const GRACE = [
  { value: '0', label: 'At once (the old key stops working now)' },
  { value: '3600', label: 'In 1 hour' },
  { value: '86400', label: 'In 24 hours' },
];

/** Rolls one key of the session's mode; the new key is shown here once and never again. */
export function RollKeyDialog({
  type,
  mode,
  onClose,
}: {
  type: 'secret' | 'public' | null;
  mode: Mode;
  onClose: () => void;
}) {
  const [grace, setGrace] = useState('0');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [revealed, setRevealed] = useState<string | null>(null);

  const close = () => {
    setRevealed(null);
    setError(null);
    onClose();
  };
  const roll = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await api<KeyRolled>('POST', '/keys/roll', { mode, type, grace_seconds: Number(grace) });
      setRevealed(r.api_key);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not reach the server.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={type !== null}
      onClose={close}
      title={`Roll the ${mode} ${type ?? ''} key`}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {revealed ? (
        <Stack>
          <Alert color="#7a4b00" variant="filled" title="Copy it now">
            This is the only time the new key is shown. Store it where your servers read it.
          </Alert>
          <Code block data-testid="new-key">
            {revealed}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={revealed}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Text>A new key replaces the current one. Programs using the current key need the new one.</Text>
          <Select
            label="The current key stops working"
            data={GRACE}
            value={grace}
            onChange={(v) => setGrace(v ?? '0')}
            allowDeselect={false}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red.9" loading={busy} onClick={() => void roll()}>
              Roll key
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
