import { Alert, Button, Checkbox, Group, Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import type { Endpoint } from '../api';

export interface EndpointFields {
  url: string;
  description: string;
  events: string[];
}

/** Adds an endpoint (`endpoint` null) or edits one: its URL, description and the events it receives. */
export function EndpointDialog({
  opened,
  endpoint,
  eventTypes,
  onSave,
  onClose,
}: {
  opened: boolean;
  endpoint: Endpoint | null;
  eventTypes: readonly string[];
  onSave: (fields: EndpointFields) => Promise<string | null>;
  onClose: () => void;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!opened) return;
    setUrl(endpoint?.url ?? '');
    setDescription(endpoint?.description ?? '');
    setEvents(endpoint?.events ?? []);
    setError(null);
  }, [opened, endpoint]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(await onSave({ url: url.trim(), description: description.trim(), events }));
    setBusy(false);
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={endpoint ? 'Edit webhook endpoint' : 'Add a webhook endpoint'}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <TextInput
            label="Endpoint URL (https)"
            type="url"
            required
            withAsterisk={false}
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
          />
          <TextInput
            label="Description"
            value={description}
            maxLength={500}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          <Checkbox.Group label="Events to send" value={events} onChange={setEvents}>
            <SimpleGrid cols={{ base: 1, xs: 2 }} mt="xs" spacing="xs">
              {eventTypes.map((t) => (
                <Checkbox key={t} value={t} label={t} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {endpoint ? 'Save' : 'Add endpoint'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
