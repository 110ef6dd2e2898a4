import { type FakeIntegration, type InitiateFields, checkInitiate, checkSigned } from './paynow-fake-rules';
import { type WireFields, encodeWire, signWire, wireGet } from './paynow-fake-wire';

/** A payment the fake holds. */
export interface FakePayment {
  integration: FakeIntegration;
  paynowReference: string;
  guid: string;
  flow: 'web' | 'express';
  request: InitiateFields;
  /** Paynow's status word: Created (web) or Sent (express) at first. */
  status: string;
  pollUrl: string;
  browserUrl: string | null;
}

/** What the handlers need of the fake. */
export interface FakeStore {
  readonly integrations: ReadonlyMap<string, FakeIntegration>;
  traceTaken(integrationId: string, trace: string): boolean;
  create(integration: FakeIntegration, request: InitiateFields, flow: 'web' | 'express'): FakePayment;
  byGuid(guid: string): FakePayment | undefined;
  byPaynowReference(ref: string): FakePayment | undefined;
  byTrace(integrationId: string, trace: string): FakePayment | undefined;
  settle(payment: FakePayment, status: string): void;
}

/** An answer: status code, content type and body. */
export interface FakeReply {
  status: number;
  contentType: string;
  body: string;
  location?: string;
}

// Paynow's content type for these replies is not documented (ASP.NET answers text/html by
// default): the connector must read the body, whatever the header says.
const form = (body: string): FakeReply => ({ status: 200, contentType: 'text/html; charset=utf-8', body });
const html = (status: number, text: string): FakeReply => ({
  status,
  contentType: 'text/html; charset=utf-8',
  body: `<!DOCTYPE html><html><body><p>${text}</p></body></html>`,
});

/** `Status=Error&Error=…`: no hash, as Paynow sends it. */
export function errorReply(error: string): FakeReply {
  return form(
    encodeWire([
      ['Status', 'Error'],
      ['Error', error],
    ]),
  );
}

/** A status message in the docs' status-update order: reference, amount, paynowreference, pollurl, status. */
export function statusUpdateFields(p: FakePayment): WireFields {
  return [
    ['reference', p.request.reference],
    ['amount', p.request.amount],
    ['paynowreference', p.paynowReference],
    ['pollurl', p.pollUrl],
    ['status', p.status],
  ];
}

let authorizationCounter = 100_000_000;

function expiresIn30Minutes(): string {
  const d = new Date(Date.now() + 30 * 60_000);
  const month = d.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${d.getUTCDate()}-${month}-${d.getUTCFullYear()} ${hh}:${mm}`; // d-MMM-yyyy HH:mm (documented format)
}

/** POST /interface/initiatetransaction (web) and /interface/remotetransaction (express checkout). */
export function handleInitiate(store: FakeStore, fields: WireFields, express: boolean): FakeReply {
  const signed = checkSigned(fields, store.integrations);
  if (!signed.ok) return errorReply(signed.error);
  const integration = signed.value;
  const checked = checkInitiate(fields, express, (trace) => store.traceTaken(integration.id, trace));
  if (!checked.ok) return errorReply(checked.error);
  const p = store.create(integration, checked.value, express ? 'express' : 'web');
  if (!express) {
    // The docs' reply order (Validating Hash): status, browserurl, pollurl, paynowreference.
    return form(
      signWire(
        [
          ['status', 'Ok'],
          ['browserurl', p.browserUrl as string],
          ['pollurl', p.pollUrl],
          ['paynowreference', p.paynowReference],
        ],
        integration.key,
      ),
    );
  }
  const reply: WireFields = [['status', 'Ok']];
  if (p.request.method === 'ecocash' || p.request.method === 'onemoney')
    reply.push(['instructions', `Approve the ${p.request.method} prompt on your phone`]);
  reply.push(['paynowreference', p.paynowReference], ['pollurl', p.pollUrl]);
  if (p.request.method === 'innbucks')
    reply.push(['authorizationcode', String(authorizationCounter++)], ['authorizationexpires', expiresIn30Minutes()]);
  return form(signWire(reply, integration.key));
}

/** POST /interface/trace: the payment by merchanttrace, or status=NotFound (signed). */
export function handleTrace(store: FakeStore, fields: WireFields): FakeReply {
  const signed = checkSigned(fields, store.integrations);
  if (!signed.ok) return errorReply(signed.error);
  const p = store.byTrace(signed.value.id, (wireGet(fields, 'merchanttrace') ?? '').trim());
  if (p === undefined) return form(signWire([['status', 'NotFound']], signed.value.key));
  return form(signWire(statusUpdateFields(p), p.integration.key));
}

/** GET or POST the poll URL: the docs' poll example order (reference, paynowreference, amount, status, pollurl). */
export function handlePoll(store: FakeStore, guid: string): FakeReply {
  const p = store.byGuid(guid);
  if (p === undefined) return errorReply('Invalid guid');
  const fields: WireFields = [
    ['reference', p.request.reference],
    ['paynowreference', p.paynowReference],
    ['amount', p.request.amount],
    ['status', p.status],
    ['pollurl', p.pollUrl],
  ];
  return form(signWire(fields, p.integration.key));
}

const OUTCOMES: Readonly<Record<string, string>> = { paid: 'Paid', cancelled: 'Cancelled', failed: 'Failed' };
const FINAL = ['paid', 'cancelled', 'failed', 'refunded', 'awaiting delivery', 'delivered', 'disputed'];

/**
 * GET /Payment/ConfirmPayment/{n}: the customer's page. Without `outcome` it shows the choices; with
 * `?outcome=paid|cancelled|failed` the customer "pays" (or gives up) and is sent back to returnurl.
 */
export function handleConfirm(store: FakeStore, paynowReference: string, outcome: string | null): FakeReply {
  const p = store.byPaynowReference(paynowReference);
  if (p === undefined || p.flow !== 'web') return html(404, 'No such payment');
  if (outcome === null) {
    const links = Object.keys(OUTCOMES)
      .map((o) => `<a href="?outcome=${o}">${o}</a>`)
      .join(' ');
    return html(200, `Pay ${p.request.amount} for ${p.request.reference}: ${links}`);
  }
  const status = OUTCOMES[outcome.toLowerCase()];
  if (status === undefined) return html(400, 'Unknown outcome');
  if (FINAL.includes(p.status.toLowerCase())) return html(409, `Already ${p.status}`);
  store.settle(p, status);
  return { ...html(302, 'Back to the merchant'), location: p.request.returnUrl };
}
