import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A labelled value in a detail card (a payment's amount, an invoice's status). */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dark.6">
        {label}
      </Text>
      <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}
