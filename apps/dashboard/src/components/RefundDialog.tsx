import { Alert, Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useMemo, useState, type FormEvent } from 'react';
import { ApiError, api, newIdempotencyKey, type Payment } from '../api';
import { money, toMinor } from '../format';

interface Props {
  payment: Payment;
  refundable: number;
  opened: boolean;
  onClose: () => void;
  onDone: () => void;
}

/** A full or partial refund with a reason; the API applies the same rules as POST /v1/transactions/refund. */
export function RefundDialog({ payment, refundable, opened, onClose, onDone }: Props) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(0);
  // One key per refund the form describes: pressing Refund again after an unknown outcome (a
  // timeout, a lost connection) replays the first attempt instead of refunding twice.
  const idempotencyKey = useMemo(() => newIdempotencyKey(), [amount, reason, done, payment.transaction_id]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const minor = amount.trim() === '' ? undefined : toMinor(amount, payment.currency);
    if (minor === null)
      return setError(
        `Enter an amount in ${payment.currency}, such as 12.50, or leave it empty to refund everything left.`,
      );
    setBusy(true);
    setError(null);
    try {
      await api(
        'POST',
        `/payments/${payment.transaction_id}/refunds`,
        { ...(minor !== undefined ? { amount: minor } : {}), ...(reason.trim() ? { reason: reason.trim() } : {}) },
        { idempotencyKey },
      );
      setDone((n) => n + 1);
      setAmount('');
      setReason('');
      onDone();
    } catch (err) {
      setError(
        err instanceof ApiError
          ? err.message
          : 'Could not reach the server; the refund may not have been made. Reload to check.',
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Refund this payment" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <TextInput
            label={`Amount (${payment.currency})`}
            description={`Up to ${money(refundable, payment.currency)}. Leave empty to refund everything left.`}
            styles={{ description: { color: 'var(--mantine-color-dark-7)' } }}
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
          />
          <Textarea label="Reason" maxLength={500} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red.9" loading={busy}>
              Refund
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
