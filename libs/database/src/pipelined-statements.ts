import { DatabaseError, type QueryResult } from 'pg';
import { isConnectionError } from './dependency-error';
import { OutcomeUnknownError, QueryFailedError } from './query-failed';
import type { PreparedStatement } from './pg-data-source';
import { type PgConnection as Connection, PgResult as Result, prepareValue } from './pg-wire';

/** One statement of a pipeline: text sent unnamed, or a statement prepared under its name. */
export interface Piped {
  statement: string | PreparedStatement;
  values?: unknown[];
}

const nameOf = (p: Piped): string => (typeof p.statement === 'string' ? '' : p.statement.name);
const textOf = (p: Piped): string => (typeof p.statement === 'string' ? p.statement : p.statement.text);

/**
 * Statements written in one go and ended by one Sync: one round trip for all of them (PostgreSQL's extended query
 * protocol). The server runs them in order and, after an error, skips the rest up to the Sync. They share the
 * connection's transaction: a BEGIN among them opens one that stays open after the Sync, a COMMIT among them ends it,
 * and outside a transaction they run as one implicit transaction. `done` gives the result of the statement at
 * `resultOf`; the others' rows are dropped.
 *
 * pg's custom-query interface, as ChainedQuery uses it. pg notes a named statement as parsed from the query's `name`
 * and `text` when the server confirms a Parse, so they follow the statement the next confirmation is for.
 */
export class PipelinedQuery {
  name: string;
  text: string;
  /** pg's client sets the connection's type parsers here before submitting. */
  _result: Result;
  readonly done: Promise<QueryResult>;
  private index = 0;
  private readonly results: Result[] = [];
  private rowError: unknown;
  private settled = false;
  private con: Connection | undefined;
  /** Written to the connection (false when `submit` refused it: nothing was sent). */
  sent = false;
  private resolve!: (r: QueryResult) => void;
  private reject!: (err: unknown) => void;

  constructor(
    private readonly statements: Piped[],
    private readonly resultOf: number,
  ) {
    if (statements.length === 0 || resultOf < 0 || resultOf >= statements.length)
      throw new Error(`a pipeline of ${statements.length} statements has no statement ${resultOf}`);
    this.name = nameOf(statements[0]);
    this.text = textOf(statements[0]);
    this._result = new Result();
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /**
   * Everything is checked, and every value encoded, before the first message is written: a pipeline refused here
   * sent nothing (pg then reports the Error through handleError). A write failing after that closes the connection.
   */
  submit(con: Connection): Error | null {
    this.con = con;
    let values: unknown[][];
    try {
      for (const p of this.statements) {
        const name = nameOf(p);
        const known = name ? (con.parsedStatements[name] ?? con.submittedNamedStatements[name]) : undefined;
        if (known !== undefined && known !== textOf(p))
          throw new Error(`prepared statement '${name}' is already used for a different text`);
      }
      values = this.statements.map((p) => (p.values ?? []).map((v) => prepareValue(v)));
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
    // From the first byte on, the outcome depends on what the server got.
    this.sent = true;
    con.stream.cork?.();
    try {
      this.statements.forEach((p, i) => {
        const name = nameOf(p);
        if (!name || (con.parsedStatements[name] ?? con.submittedNamedStatements[name]) === undefined) {
          con.parse({ name, text: textOf(p) });
          if (name) con.submittedNamedStatements[name] = textOf(p);
        }
        // Encoded above; prepareValue leaves an encoded value as it is.
        con.bind({ statement: name, values: values[i], valueMapper: prepareValue });
        con.describe({ type: 'P', name: '' });
        con.execute({ portal: '', rows: 0 });
      });
      con.sync();
    } catch (err) {
      // Not expected once the values are encoded; should a write fail, the connection is closed rather than left
      // waiting for answers to a pipeline the server may have only part of.
      con.stream.destroy();
      this.settle(err);
    } finally {
      con.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(msg: { fields: unknown[] }): void {
    this._result.addFields(msg.fields);
  }

  handleDataRow(msg: { fields: unknown[] }): void {
    if (this.rowError) return;
    try {
      this._result.addRow(this._result.parseRow(msg.fields));
    } catch (err) {
      this.rowError = err;
    }
  }

  handleCommandComplete(msg: unknown): void {
    this._result.addCommandComplete(msg);
    this.next();
  }

  handleEmptyQuery(): void {
    this.next();
  }

  /** The statement at `index` is done: the next confirmations are for the one after it. */
  private next(): void {
    this.results.push(this._result);
    this._result = new Result(undefined, this._result._types);
    this.index += 1;
    const following = this.statements[this.index];
    if (following) {
      this.name = nameOf(following);
      this.text = textOf(following);
    }
  }

  handleError(err: unknown): void {
    if (this.con && this.sent && !isConnectionError(err)) {
      if (err instanceof DatabaseError) {
        // The server skips to the Sync and answers it, which ends an implicit transaction rolled back (an explicit one
        // stays open, failed, for the caller to roll back). Named statements it did not get to are forgotten, so the
        // next use parses them again.
        for (const p of this.statements.slice(this.index)) {
          const name = nameOf(p);
          if (name && this.con.parsedStatements[name] === undefined) delete this.con.submittedNamedStatements[name];
        }
      } else {
        // The client's own error with the pipeline in flight (a read timeout): the connection is closed, so the server
        // rolls back what has not committed and nothing unread is left for the next query.
        this.con.stream.destroy();
      }
    }
    this.settle(err);
  }

  handleReadyForQuery(): void {
    if (this.rowError) return this.settle(this.rowError);
    const r = this.results[this.resultOf];
    if (!r) return this.settle(new Error('the connection was ready before the pipeline completed'));
    this.settle(null, r as unknown as QueryResult);
  }

  handlePortalSuspended(): void {}

  /** COPY is refused: the statement fails and the pipeline ends with the server's error. */
  handleCopyInResponse(con: Connection): void {
    con.sendCopyFail('COPY is not supported in a pipeline');
    // In COPY the server ignored the Sync already sent; after the CopyFail it skips to the next one. A statement after
    // the COPY ends it with a protocol error and is followed by that Sync; a COPY sent last needs one more.
    if (this.index === this.statements.length - 1) con.sync();
  }

  handleCopyData(): void {}

  private settle(err: unknown, value?: QueryResult): void {
    if (this.settled) return;
    this.settled = true;
    if (err) this.reject(err);
    else this.resolve(value!);
  }
}

/**
 * Runs statements in one round trip on a checked-out connection: the result of the one at `resultOf`. A failure is a
 * QueryFailedError naming that statement, or, when `commits` (a COMMIT among them) and the outcome is not known, an
 * OutcomeUnknownError.
 */
export async function runPipelined(
  client: { query(query: PipelinedQuery): unknown },
  statements: Piped[],
  resultOf: number,
  commits: boolean,
): Promise<QueryResult> {
  const { values } = statements[resultOf];
  const text = textOf(statements[resultOf]);
  const pipeline = new PipelinedQuery(statements, resultOf);
  try {
    client.query(pipeline);
    return await pipeline.done;
  } catch (err) {
    // Only the server's own answer to a statement (an error response) says the COMMIT did not run; a connection lost
    // (a FATAL response of a server shutting down included) or a client-side error once the pipeline was written leaves
    // it unknown.
    if (commits && pipeline.sent && (!(err instanceof DatabaseError) || isConnectionError(err)))
      throw new OutcomeUnknownError(text, values, err);
    throw new QueryFailedError(text, values, err);
  }
}
