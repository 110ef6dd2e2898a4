import { DatabaseError } from 'pg';
import { isConnectionError } from './dependency-error';
import type { EntityManager, PreparedStatement } from './pg-data-source';
import { queryRows } from './query';
import { type PgConnection as Connection, PgResult as Result, prepareValue } from './pg-wire';

/** The statement that follows a first one, built from that one's rows. */
export interface FollowUp {
  statement: PreparedStatement;
  params: unknown[];
}

/**
 * Two statements in one transaction without BEGIN or COMMIT, the second built from the first one's rows: the first is
 * flushed instead of synced, so its rows come back while its implicit transaction stays open, and the Sync after the
 * second commits both (PostgreSQL's extended query protocol). Two round trips where BEGIN…COMMIT takes four. `then`
 * returning null commits the first alone. A failure before the Sync is sent leaves nothing written.
 */
export class ChainedStatements<R> {
  constructor(
    readonly first: PreparedStatement,
    readonly params: unknown[],
    readonly then: (rows: R[]) => FollowUp | null,
  ) {}

  get text(): string {
    return `${this.first.text} -- then a statement built from its rows`;
  }
}

/** Runs a ChainedStatements on `m` (the pool, a deadline-bounded manager or a transaction): the first's rows. */
export function queryChained<R>(
  m: Pick<EntityManager, 'query'>,
  first: PreparedStatement,
  params: unknown[],
  then: (rows: R[]) => FollowUp | null,
): Promise<R[]> {
  return queryRows<R>(m, new ChainedStatements(first, params, then) as ChainedStatements<never>);
}

interface Message {
  fields: unknown[];
}

/**
 * pg's custom-query interface (the one pg-cursor uses) for a ChainedStatements; `name` and `text` are the statement on
 * the wire, which the client reads to track prepared statements. Anything that goes wrong before the Sync is sent
 * closes the connection (`abort`), which rolls the first statement back; a server error is answered with the Sync,
 * which ends the transaction rolled back.
 */
export class ChainedQuery<R> {
  name: string;
  text: string;
  /** pg's client sets the connection's type parsers here before submitting. */
  _result: Result;
  readonly done: Promise<{ command: string; rows: R[]; rowCount: number }>;
  /** Closed before its Sync was written: the server rolled back, whatever error the caller sees. */
  rolledBack = false;
  private synced = false;
  private con: Connection | undefined;
  private firstResult: Result | undefined;
  private rowError: unknown;
  private settled = false;
  private resolve!: (r: { command: string; rows: R[]; rowCount: number }) => void;
  private reject!: (err: unknown) => void;

  constructor(private readonly chain: ChainedStatements<R>) {
    this.name = chain.first.name;
    this.text = chain.first.text;
    this._result = new Result();
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(con: Connection): null {
    this.con = con;
    try {
      this.send(con, this.chain.first, this.chain.params, false);
    } catch (err) {
      this.abort(err);
    }
    return null;
  }

  /** At a caller's deadline: closes the connection if the Sync is not written yet, so nothing commits. */
  cancelBeforeSync(err: unknown): void {
    if (!this.synced) this.abort(err);
  }

  /** Ends the chain with `err`; before the Sync it closes the connection, so the server rolls back: a known failure. */
  private abort(err: unknown): void {
    this.settle(err);
    if (this.synced || !this.con) return;
    this.synced = true;
    this.rolledBack = true;
    this.con.stream.destroy();
  }

  private send(con: Connection, statement: PreparedStatement, values: unknown[], sync: boolean): void {
    const parsed = con.parsedStatements[statement.name] ?? con.submittedNamedStatements[statement.name];
    if (parsed !== undefined && parsed !== statement.text)
      throw new Error(`prepared statement '${statement.name}' is already used for a different text`);
    this.name = statement.name;
    this.text = statement.text;
    con.stream.cork?.();
    try {
      if (parsed === undefined) {
        con.parse({ name: statement.name, text: statement.text });
        con.submittedNamedStatements[statement.name] = statement.text;
      }
      con.bind({ statement: statement.name, values, valueMapper: prepareValue });
      con.describe({ type: 'P', name: '' });
      con.execute({ portal: '', rows: 0 });
      if (sync) {
        con.sync();
        this.synced = true;
      } else con.flush();
    } finally {
      con.stream.uncork?.();
    }
  }

  handleRowDescription(msg: Message): void {
    this._result.addFields(msg.fields);
  }

  handleDataRow(msg: Message): void {
    if (this.rowError) return;
    try {
      this._result.addRow(this._result.parseRow(msg.fields));
    } catch (err) {
      this.rowError = err;
    }
  }

  handleCommandComplete(msg: unknown, con: Connection): void {
    this._result.addCommandComplete(msg);
    if (this.rowError) {
      this.abort(this.rowError);
      return;
    }
    if (this.firstResult || this.settled) return;
    this.firstResult = this._result;
    this._result = new Result(undefined, this.firstResult._types);
    try {
      const next = this.chain.then(this.firstResult.rows as R[]);
      if (next === null) {
        con.sync();
        this.synced = true;
      } else this.send(con, next.statement, next.params, true);
    } catch (err) {
      this.abort(err);
    }
  }

  /** An empty statement: the server sends no CommandComplete, so nothing more would come before a Sync. */
  handleEmptyQuery(): void {
    this.abort(new Error('a chained statement is empty'));
  }

  handleError(err: unknown, con: Connection): void {
    // After an error response the server skips to the next Sync, which ends the transaction rolled back. An error of
    // the client's own (a read timeout) closes the connection instead: a Sync would commit. A lost connection is
    // reported as it is: whether the Sync reached the server is not known here.
    if (isConnectionError(err)) {
      this.settle(err);
      return;
    }
    if (!(err instanceof DatabaseError)) {
      this.abort(err);
      return;
    }
    if (!this.synced) {
      this.synced = true;
      con.sync();
    }
    this.settle(err);
  }

  handleReadyForQuery(): void {
    const r = this.firstResult;
    if (!r) this.settle(new Error('the connection was ready before the first statement completed'));
    else this.settle(null, { command: r.command, rows: r.rows as R[], rowCount: r.rowCount ?? 0 });
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(): void {
    this.abort(new Error('COPY is not supported in chained statements'));
  }

  handleCopyData(): void {}

  private settle(err: unknown, value?: { command: string; rows: R[]; rowCount: number }): void {
    if (this.settled) return;
    this.settled = true;
    if (err) this.reject(err);
    else this.resolve(value!);
  }
}
