import type { DashboardApi } from '@payments/contracts';
import type { ConnectionObject } from '../connections/connection.responses';
import type * as R from '../splits/splits.responses';
import type { LinkObject } from '../transactions/transaction.responses';
import type { Role } from './roles';

/**
 * The dashboard API's answers (DashboardApi, in the contracts lib, which the dashboard app reads)
 * embed some of /v1's objects, whose types the gateway derives from its OpenAPI schemas. Each
 * pair below must have the same fields, and /v1's must fit the dashboard's declaration: when one
 * changes without the other, this file stops compiling. Nothing runs here.
 */
type SameFields<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Fits<Actual, Declared> = [Actual] extends [Declared] ? SameFields<Actual, Declared> : false;
type Holds<T extends true> = T;

type DashboardEntry = Omit<DashboardApi.LedgerEntryItem, 'kind' | 'transaction_public_id'>;

export type AnswerShapesMatch = [
  Holds<Fits<LinkObject, DashboardApi.LinkItem>>,
  Holds<Fits<LinkObject['splits'][number], DashboardApi.LinkSplitItem>>,
  Holds<Fits<R.LedgerEntry, DashboardEntry>>,
  Holds<Fits<R.SplitConfigList['split_configs'][number], DashboardApi.SplitConfigItem>>,
  Holds<Fits<R.Invoice, DashboardApi.InvoiceItem>>,
  Holds<Fits<R.LedgerSummary['summary'], DashboardApi.LedgerSummary['summary']>>,
  Holds<Fits<ConnectionObject, DashboardApi.ConnectionItem>>,
  Holds<Fits<Role, DashboardApi.Role>>,
  Holds<Fits<DashboardApi.Role, Role>>,
];
