import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Split configs with their version history, the refunds this service has heard about, ledger
 * entries and settlement invoices. Needs PostgreSQL ≥ 15 (UNIQUE NULLS NOT DISTINCT).
 */
export class SplitsLedgerSettlement1764000000000 implements MigrationInterface {
  name = 'SplitsLedgerSettlement1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE split_configs (
        id bigserial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
        owner_business_id integer NOT NULL,
        partner_business_id integer NOT NULL,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        currency char(3) NOT NULL,
        split_type text NOT NULL CHECK (split_type IN ('percentage', 'fixed')),
        split_value bigint NOT NULL CHECK (split_value > 0 AND (split_type <> 'percentage' OR split_value <= 10000)),
        split_role text NOT NULL CHECK (split_role IN ('fee', 'principal')),
        description text CHECK (char_length(description) <= 500),
        is_active boolean NOT NULL DEFAULT true,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (partner_business_id <> owner_business_id)
      )`);
    await q.query('CREATE INDEX split_configs_owner ON split_configs (owner_business_id, mode, currency)');
    // The terms in force over [valid_from, valid_to): a transaction uses the version valid at its
    // creation time. valid_to is null for the current version of an active config.
    await q.query(`
      CREATE TABLE split_config_versions (
        split_config_id bigint NOT NULL REFERENCES split_configs (id),
        version integer NOT NULL,
        split_type text NOT NULL CHECK (split_type IN ('percentage', 'fixed')),
        split_value bigint NOT NULL CHECK (split_value > 0 AND (split_type <> 'percentage' OR split_value <= 10000)),
        split_role text NOT NULL CHECK (split_role IN ('fee', 'principal')),
        description text,
        valid_from timestamptz NOT NULL,
        valid_to timestamptz,
        PRIMARY KEY (split_config_id, version),
        CHECK (valid_to IS NULL OR valid_to >= valid_from)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX split_config_versions_current ON split_config_versions (split_config_id)
       WHERE valid_to IS NULL`,
    );

    await q.query(`
      CREATE TABLE ledger_refunds (
        id bigint PRIMARY KEY,
        public_id text NOT NULL UNIQUE,
        transaction_id bigint NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        status text NOT NULL,
        version integer NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX ledger_refunds_transaction ON ledger_refunds (transaction_id)');

    await q.query(`
      CREATE TABLE settlement_invoices (
        id bigserial PRIMARY KEY,
        invoice_reference text NOT NULL UNIQUE,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        debtor_business_id integer NOT NULL,
        creditor_business_id integer NOT NULL,
        currency char(3) NOT NULL,
        amount bigint NOT NULL CHECK (amount >= 0),
        status text NOT NULL CHECK (status IN ('issued', 'paid')),
        entry_count integer NOT NULL CHECK (entry_count > 0),
        period_end timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        paid_at timestamptz,
        CHECK ((status = 'paid') = (paid_at IS NOT NULL))
      )`);
    await q.query(
      'CREATE INDEX settlement_invoices_debtor ON settlement_invoices (debtor_business_id, mode, created_at DESC)',
    );
    await q.query(
      'CREATE INDEX settlement_invoices_creditor ON settlement_invoices (creditor_business_id, mode, created_at DESC)',
    );

    // One row per (transaction, split) and per (transaction, split, refund) for reversals; the
    // unique constraint backs the inbox so that not even a bug can write one twice.
    await q.query(`
      CREATE TABLE ledger_entries (
        id bigserial PRIMARY KEY,
        public_id uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
        kind text NOT NULL CHECK (kind IN ('split', 'reversal')),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        transaction_id bigint NOT NULL,
        transaction_public_id text NOT NULL,
        split_config_id bigint REFERENCES split_configs (id),
        split_config_version integer,
        link_split_index integer,
        refund_id bigint,
        reverses_entry_id bigint REFERENCES ledger_entries (id),
        creditor_business_id integer NOT NULL,
        debtor_business_id integer NOT NULL,
        amount bigint NOT NULL,
        currency char(3) NOT NULL,
        capped boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'invoiced', 'settled')),
        invoice_reference text REFERENCES settlement_invoices (invoice_reference),
        settlement_date timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (creditor_business_id <> debtor_business_id),
        CHECK ((split_config_id IS NULL) <> (link_split_index IS NULL)),
        CHECK (CASE kind WHEN 'split' THEN amount >= 0 AND refund_id IS NULL AND reverses_entry_id IS NULL
                         ELSE amount < 0 AND refund_id IS NOT NULL AND reverses_entry_id IS NOT NULL END),
        CHECK ((status = 'pending') = (invoice_reference IS NULL)
               AND (invoice_reference IS NULL) = (settlement_date IS NULL)),
        CONSTRAINT ledger_entries_once UNIQUE NULLS NOT DISTINCT
          (transaction_id, split_config_id, link_split_index, kind, refund_id)
      )`);
    await q.query(
      'CREATE INDEX ledger_entries_creditor ON ledger_entries (creditor_business_id, mode, created_at DESC)',
    );
    await q.query('CREATE INDEX ledger_entries_debtor ON ledger_entries (debtor_business_id, mode, created_at DESC)');
    await q.query('CREATE INDEX ledger_entries_transaction ON ledger_entries (transaction_id)');
    await q.query("CREATE INDEX ledger_entries_pending ON ledger_entries (id) WHERE status = 'pending'");
    await q.query(
      'CREATE INDEX ledger_entries_invoice ON ledger_entries (invoice_reference) WHERE invoice_reference IS NOT NULL',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE ledger_entries');
    await q.query('DROP TABLE settlement_invoices');
    await q.query('DROP TABLE ledger_refunds');
    await q.query('DROP TABLE split_config_versions');
    await q.query('DROP TABLE split_configs');
  }
}
