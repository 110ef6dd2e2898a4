import { Alert, Button, Code, Group, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { RedirectOrigins as RedirectOriginsAnswer } from '@payments/contracts/dashboard-api';
import { api } from '../api';
import { problemText } from '../api-types';

/** The origins public-key payments may send customers back to; owners replace the list. */
export function RedirectOrigins({
  origins,
  editable,
  onSaved,
}: {
  origins: string[];
  editable: boolean;
  onSaved: () => void;
}) {
  const [text, setText] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const save = async () => {
    const list = (text ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    try {
      const r = await api<RedirectOriginsAnswer>('PUT', '/settings/redirect_origins', { redirect_origins: list });
      setNotice({ ok: true, text: `${r.redirect_origins.length} redirect origin(s) allowed.` });
      setText(null);
      onSaved();
    } catch (err) {
      setNotice({ ok: false, text: problemText(err) });
    }
  };
  return (
    <Stack gap="xs">
      {notice && (
        <Alert color={notice.ok ? 'green' : 'red'} role="status">
          {notice.text}
        </Alert>
      )}
      {text === null ? (
        <>
          {origins.length === 0 ? (
            <Text c="dark.6">None: public-key payments cannot name a redirect URL.</Text>
          ) : (
            <ul aria-label="Redirect origins" style={{ margin: 0 }}>
              {origins.map((o) => (
                <li key={o}>
                  <Code>{o}</Code>
                </li>
              ))}
            </ul>
          )}
          {editable && (
            <Group>
              <Button variant="default" onClick={() => setText(origins.join('\n'))}>
                Edit redirect origins
              </Button>
            </Group>
          )}
        </>
      ) : (
        <>
          <Textarea
            label="Redirect origins, one per line (https://host[:port])"
            autosize
            minRows={3}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <Group>
            <Button onClick={() => void save()}>Save origins</Button>
            <Button variant="default" onClick={() => setText(null)}>
              Cancel
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
