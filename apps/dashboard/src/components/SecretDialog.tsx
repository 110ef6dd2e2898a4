import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { dateTime } from '../format';

/** A webhook signing secret, shown this once (after adding an endpoint or rolling its secret). */
export function SecretDialog({
  secret,
  previousExpires,
  onClose,
}: {
  secret: string | null;
  previousExpires: string | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={secret !== null}
      onClose={onClose}
      title="The endpoint’s signing secret"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {secret && (
        <Stack>
          <Alert color="#7a4b00" variant="filled" title="Copy it now">
            This is the only time this secret is shown. Your endpoint checks each webhook’s signature with it.
          </Alert>
          <Code block data-testid="signing-secret">
            {secret}
          </Code>
          {previousExpires && (
            <Text size="sm">
              Until {dateTime(previousExpires)} every webhook is signed with the previous secret as well, so your
              endpoint can switch over.
            </Text>
          )}
          <Group justify="flex-end">
            <CopyButton value={secret}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
