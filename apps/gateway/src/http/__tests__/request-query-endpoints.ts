import type { EndpointInputs } from './request-endpoints';
import { CREATED, DATES, DLV, INV, LIMITS, LINK, REFERENCES, SKIPS, TXN, UUID, page } from './request-values';

/** The validated query strings (see request-endpoints.ts). */
export const QUERY_ENDPOINTS: Record<string, EndpointInputs> = {
  'GET /v1/transactions/verify': { kind: 'query', valid: { reference: 'ref-1' }, values: { reference: REFERENCES } },
  'GET /v1/transactions/fetch': { kind: 'query', valid: { publicId: TXN }, values: { publicId: REFERENCES } },
  'GET /v1/transactions/list': {
    kind: 'query',
    valid: {
      start_date: '2025-01-01',
      end_date: '2025-01-31',
      limit: '10',
      status: 'success',
      reference: 'r',
      email: 'a@b.co',
      payment_link_id: LINK,
      starting_after: TXN,
    },
    values: {
      start_date: DATES,
      end_date: [...DATES, '2024-12-31'],
      status: ['pending', 'Success', ['success', 'failed']],
      reference: REFERENCES,
      email: ['e'.repeat(254), 'e'.repeat(255)],
      payment_link_id: [LINK, 'plink_short', 'link_AbCdEf0123'],
      ...page(TXN),
      ...CREATED,
    },
  },
  'GET /v1/transactions/refunds': {
    kind: 'query',
    valid: { transaction_reference: 'ref-1', limit: '10' },
    values: { transaction_reference: REFERENCES, ...page(`rfd_${'A'.repeat(10)}`) },
  },
  'GET /v1/links': { kind: 'query', valid: { limit: '10', ending_before: LINK }, values: page(LINK) },
  'GET /v1/callback/list': {
    kind: 'query',
    valid: { limit: '10', skip: '0', starting_after: '12' },
    values: { ...page('12'), skip: SKIPS },
  },
  'GET /v1/callback/{id}/deliveries': {
    kind: 'query',
    valid: { limit: '10', skip: '5', status: 'failed', starting_after: DLV },
    values: { ...page(DLV), skip: SKIPS, status: ['succeeded', 'Failed', 'x'] },
  },
  'GET /v1/events': {
    kind: 'query',
    valid: {
      limit: '10',
      order: 'recorded',
      type: 'transaction.success',
      'created[gte]': '1738324800',
      starting_after: 'evt_1',
    },
    values: {
      ...page('evt_1'),
      order: ['created', 'time'],
      type: ['payment.completed', 'ping', 'x', ['a', 'b']],
      ...CREATED,
    },
  },
  'GET /admin/v1/reconcile/transactions': {
    kind: 'query',
    valid: { after: 'abc', limit: '10' },
    values: { after: ['a'.repeat(64), 'a'.repeat(65), 'a b', ['a', 'b']], limit: LIMITS },
  },
  'GET /v1/splits/ledger': {
    kind: 'query',
    valid: { limit: '10', skip: '0', starting_after: UUID },
    values: { ...page(UUID), skip: SKIPS },
  },
  'GET /v1/splits/invoices': {
    kind: 'query',
    valid: { limit: '10', skip: '0', ending_before: INV },
    values: { ...page(INV), skip: SKIPS },
  },
  'GET /v1/splits/config': { kind: 'query', valid: { limit: '10', starting_after: UUID }, values: page(UUID) },
};
