import { Badge } from '@mantine/core';

// Dark enough for white text in a small badge (contrast of 7:1 or more).
const COLORS: Record<string, string> = {
  success: '#1b5e20',
  succeeded: '#1b5e20',
  failed: '#b71c1c',
  pending: '#424242',
  processing: '#0d47a1',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? '#424242'} variant="filled">
      {status}
    </Badge>
  );
}
