import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = { success: 'green.9', failed: 'red.9', pending: 'gray.8', processing: 'blue.9' };

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? 'gray.8'} variant="filled">
      {status}
    </Badge>
  );
}
