import { Box } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A wide table on a narrow screen scrolls sideways inside this region, which keyboard users can
 * focus and scroll too (axe: scrollable-region-focusable).
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      {children}
    </Box>
  );
}
