import { Button, Group } from '@mantine/core';
import { useEffect, useState } from 'react';

/** Where a list page starts: the API's cursors (newest first; starting_after pages to older items). */
export interface Cursor {
  starting_after?: string;
  ending_before?: string;
}

/** The list's cursor, back to the first page whenever `resetKey` (the data mode) changes. */
export function useCursor(resetKey: unknown): [Cursor, (c: Cursor) => void] {
  const [cursor, setCursor] = useState<Cursor>({});
  useEffect(() => setCursor({}), [resetKey]);
  return [cursor, setCursor];
}

interface Props {
  label: string;
  cursor: Cursor;
  /** The ids of the page shown, newest first. */
  ids: string[];
  /** The API's has_more: another page follows in the direction the page was asked for. */
  hasMore: boolean;
  onChange: (c: Cursor) => void;
}

/** Newer / Older buttons over a cursor-paged list. */
export function Pager({ label, cursor, ids, hasMore, onChange }: Props) {
  const backwards = cursor.ending_before !== undefined;
  const newer = backwards ? hasMore : cursor.starting_after !== undefined;
  const older = backwards ? ids.length > 0 : hasMore;
  if (!newer && !older) return null;
  return (
    <Group justify="flex-end" gap="xs" aria-label={`${label} pages`} role="group">
      <Button
        variant="default"
        size="xs"
        disabled={!newer}
        onClick={() => onChange(ids.length > 0 ? { ending_before: ids[0] } : {})}
      >
        Newer
      </Button>
      <Button
        variant="default"
        size="xs"
        disabled={!older}
        onClick={() => onChange({ starting_after: ids[ids.length - 1] })}
      >
        Older
      </Button>
    </Group>
  );
}
