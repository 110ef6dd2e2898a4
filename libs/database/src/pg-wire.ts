import * as pg from 'pg';

/**
 * The parts of pg (8.x) that a custom query (pg's submittable interface, the one pg-cursor uses) works with, which pg
 * exports without type definitions: ChainedQuery and PipelinedQuery write protocol messages themselves.
 */

/** pg's result builder: parses rows with the connection's types. */
export interface PgResult {
  command: string;
  rowCount: number | null;
  rows: unknown[];
  _types: unknown;
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): unknown;
  addRow(row: unknown): void;
  addCommandComplete(msg: unknown): void;
}

const exported = pg as unknown as {
  Result: new (rowMode?: string, types?: unknown) => PgResult;
  utils: { prepareValue: (value: unknown) => unknown };
};
export const PgResult = exported.Result;

/** How pg encodes a parameter (a Date, a Buffer, an object as JSON…); it may throw (a BigInt in an object). */
export const prepareValue = exported.utils.prepareValue;

/** The connection a custom query is submitted on. */
export interface PgConnection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  stream: { cork?(): void; uncork?(): void; destroy(): void };
  parse(m: { name: string; text: string }): void;
  bind(m: { statement: string; values: unknown[]; valueMapper: unknown }): void;
  describe(m: { type: 'P'; name: string }): void;
  execute(m: { portal: string; rows: number }): void;
  flush(): void;
  sync(): void;
  sendCopyFail(message: string): void;
}
