import { Table, VisuallyHidden } from '@mantine/core';
import type { Key, ReactNode } from 'react';
import { ScrollRegion } from './ScrollRegion';

export interface Column<T> {
  header: string;
  /** The header is for screen readers only (a column of action buttons). */
  visuallyHiddenHeader?: boolean;
  cell: (row: T) => ReactNode;
}

/**
 * A list page's table: a focusable scroll region named `label`, the caption on top, a head row
 * and one row per item (`rowKey` keys it). Columns left out (a role that cannot act) are simply
 * not in `columns`.
 */
export function DataTable<T>({
  label,
  caption,
  columns,
  rows,
  rowKey,
  minWidth,
  striped = true,
}: {
  label: string;
  caption: ReactNode;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => Key;
  minWidth: number;
  striped?: boolean;
}) {
  return (
    <ScrollRegion label={label}>
      <Table miw={minWidth} striped={striped} captionSide="top">
        <Table.Caption c="dark.8">{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.header}>
                {c.visuallyHiddenHeader ? <VisuallyHidden>{c.header}</VisuallyHidden> : c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={rowKey(r)}>
              {columns.map((c) => (
                <Table.Td key={c.header}>{c.cell(r)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}
