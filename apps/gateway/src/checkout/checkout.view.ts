import type { CheckoutView } from '@payments/contracts';
import {
  MOBILE_MONEY_NUMBER_INPUT_PATTERN,
  PAYMENT_METHOD_CODES,
  PAYMENT_METHODS,
  codesOfType,
  isPaymentMethodCode,
  labelOfCode,
} from '@payments/domain';
import { toMajorString } from '@payments/money';

const esc = (v: unknown) =>
  String(v ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

export interface CheckoutPageModel {
  view: CheckoutView;
  merchant: string;
  error?: string;
  /** What the customer typed, kept when the form comes back with an error. */
  form?: { email?: string; payment_method_code?: string; mobile_money_number?: string };
  /** One per rendering of a payment link's page, so a double submit pays once. */
  attemptToken?: string;
}

const MOBILE_MONEY_LABELS = codesOfType('mobile_money').map(labelOfCode).join(' and ');

const money = (minor: number, currency: string) => `${toMajorString(minor, currency)} ${esc(currency)}`;

const LOCK_ICON =
  '<svg aria-hidden="true" width="12" height="12" viewBox="0 0 24 24"><path fill="currentColor" ' +
  'd="M12 1a5 5 0 0 0-5 5v4H5v13h14V10h-2V6a5 5 0 0 0-5-5zm-3 9V6a3 3 0 0 1 6 0v4z"/></svg>';

const FOOTER =
  `<footer class="secure">${LOCK_ICON} Secured payment · ` +
  'your card and wallet details are never shared with the merchant</footer>';

function layout(title: string, body: string, opts: { refreshSeconds?: number } = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${opts.refreshSeconds ? `<meta http-equiv="refresh" content="${opts.refreshSeconds}">` : ''}
<title>${esc(title)}</title>
<link rel="stylesheet" href="/checkout/checkout.css">
</head>
<body>
<main class="card">
${body}
${FOOTER}
</main>
</body>
</html>`;
}

function summary(v: CheckoutView, merchant: string): string {
  return `
<header>
  ${v.mode === 'test' ? '<p class="badge" role="note">Test mode — no real money moves</p>' : ''}
  <p class="merchant">Pay <strong>${esc(merchant)}</strong></p>
  ${v.description ? `<h1>${esc(v.description)}</h1>` : '<h1>Payment</h1>'}
</header>
<dl class="amounts">
  <div><dt>Amount</dt><dd>${money(v.amount, v.currency)}</dd></div>
  <div><dt>Charges</dt><dd>${money(v.charges, v.currency)}</dd></div>
  <div class="total"><dt>Total</dt><dd data-testid="total">${money(v.total, v.currency)}</dd></div>
</dl>`;
}

function methodChoice(v: CheckoutView, chosen?: string): string {
  if (v.payment_method_code) {
    const label = isPaymentMethodCode(v.payment_method_code)
      ? labelOfCode(v.payment_method_code)
      : v.payment_method_code;
    return `<p class="fixed-method">Payment method: <strong>${esc(label)}</strong></p>`;
  }
  return `<fieldset>
  <legend>Payment method</legend>
  ${PAYMENT_METHOD_CODES.map(
    (code, i) =>
      `<label class="method"><input type="radio" name="payment_method_code" value="${code}" ${
        (chosen ? chosen === code : i === 0) ? 'checked' : ''
      } required> ${esc(labelOfCode(code))}</label>`,
  ).join('\n  ')}
</fieldset>`;
}

const DECLINE_BUTTON =
  '<button type="submit" name="action" value="decline" class="decline" formnovalidate>Decline</button>';

function mobileMoneyField(fixed: unknown, value: string | undefined): string {
  const hint = fixed ? '' : ` <span class="hint">(${MOBILE_MONEY_LABELS})</span>`;
  const attributes = [
    'id="mobile_money_number" name="mobile_money_number" type="tel" inputmode="numeric" autocomplete="tel"',
    `placeholder="0771234567" pattern="${MOBILE_MONEY_NUMBER_INPUT_PATTERN}" value="${esc(value)}"`,
    fixed ? 'required' : '',
  ].join(' ');
  return `<label for="mobile_money_number">Mobile money number${hint}</label>
  <input ${attributes}>`;
}

/** The page for an open link or a pending transaction: the form. */
export function renderForm({ view: v, merchant, error, form, attemptToken }: CheckoutPageModel): string {
  const fixed = isPaymentMethodCode(v.payment_method_code) ? PAYMENT_METHODS[v.payment_method_code] : undefined;
  const needsNumber = !fixed || fixed.type === 'mobile_money';
  const body = `${summary(v, merchant)}
${error ? `<p class="error" role="alert" id="form-error">${esc(error)}</p>` : ''}
<form method="post" action="/checkout/pay" ${error ? 'aria-describedby="form-error"' : ''}>
  <input type="hidden" name="checkout_id" value="${esc(v.checkout_id)}">
  ${attemptToken ? `<input type="hidden" name="attempt_token" value="${esc(attemptToken)}">` : ''}
  ${
    v.kind === 'link'
      ? `<label for="email">Email address</label>
  <input id="email" name="email" type="email" autocomplete="email" required value="${esc(form?.email)}">`
      : ''
  }
  ${methodChoice(v, form?.payment_method_code)}
  ${needsNumber ? mobileMoneyField(fixed, form?.mobile_money_number) : ''}
  <div class="actions">
    <button type="submit" name="action" value="pay" class="pay">Pay ${money(v.total, v.currency)}</button>
    ${v.mode === 'test' ? DECLINE_BUTTON : ''}
  </div>
</form>`;
  return layout(`Pay ${merchant}`, body);
}

/** Waiting for the customer to approve on the handset: the page refreshes itself until it settles. */
export function renderProcessing({ view: v, merchant }: CheckoutPageModel): string {
  return layout(
    'Approve the payment',
    `${summary(v, merchant)}
<section class="status processing" role="status" aria-live="polite">
  <h2>Approve the payment on your phone</h2>
  <p>${esc(v.message)}. This page updates by itself.</p>
</section>`,
    { refreshSeconds: 2 },
  );
}

/**
 * A payment waiting at its provider: a button to the provider's own page (redirect flows), the
 * code to enter in the wallet app, or the provider's instructions. Never sent there on its own: a
 * customer who came back without paying must not be bounced back. Refreshes itself until it ends.
 */
export function renderAtProvider({ view: v, merchant }: CheckoutPageModel): string {
  const p = v.provider!;
  const steps = [
    p.authorization_url
      ? `<p><a class="pay button" href="${esc(p.authorization_url)}" rel="noreferrer">` +
        `Continue to ${esc(p.name)}</a></p>`
      : '',
    p.authorization_code
      ? `<p>Enter the code <code data-testid="authorization-code">${esc(p.authorization_code)}</code> ` +
        `in your ${esc(p.name)} app.</p>`
      : '',
    p.instructions ? `<p>${esc(p.instructions)}</p>` : '',
  ].join('');
  return layout(
    `Pay with ${p.name}`,
    `${summary(v, merchant)}
<section class="status processing" role="status" aria-live="polite">
  <h2>${p.authorization_url ? `Pay on ${esc(p.name)}'s page` : `Waiting for ${esc(p.name)}`}</h2>
  ${steps || `<p>${esc(v.message)}.</p>`}
  <p>This page updates by itself once ${esc(p.name)} confirms the payment.</p>
</section>`,
    { refreshSeconds: 5 },
  );
}

export function renderResult({ view: v, merchant }: CheckoutPageModel): string {
  const ok = v.status === 'success';
  return layout(
    ok ? 'Payment successful' : 'Payment not completed',
    `${summary(v, merchant)}
<section class="status ${ok ? 'success' : 'failed'}" role="status">
  <h2>${ok ? 'Payment successful' : 'Payment not completed'}</h2>
  <p>${esc(v.message)}.${v.transaction_reference ? ` Reference <code>${esc(v.transaction_reference)}</code>.` : ''}</p>
  <p>You can close this page.</p>
</section>`,
  );
}

/** A payment link its merchant deactivated: nothing to pay, and no form to submit. */
export function renderInactive({ view: v, merchant }: CheckoutPageModel): string {
  return layout(
    'Payment link no longer active',
    `${summary(v, merchant)}
<section class="status failed" role="status">
  <h2>This payment link is no longer active</h2>
  <p>${esc(merchant)} no longer accepts payments through it. Ask them for a new link.</p>
</section>`,
  );
}

export function renderNotFound(): string {
  return layout(
    'Checkout not found',
    '<h1>This checkout does not exist</h1><p>Check the link you were given, or ask the merchant for a new one.</p>',
  );
}

export function renderUnavailable(requestId: string): string {
  return layout(
    'Try again shortly',
    '<h1>We could not load this payment</h1>' +
      `<p>Please try again in a moment. Reference <code>${esc(requestId)}</code>.</p>`,
  );
}

// A backslash ending a line continues it (nothing is inserted): each rule is sent on one line.
export const CHECKOUT_CSS = `
:root { color-scheme: light; --ink: #14213d; --muted: #5c677d; --line: #dde3ea; \
--brand: #1d4ed8; --ok: #15803d; --bad: #b91c1c; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f3f6fa; \
font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); }
.card { width: min(440px, 100% - 2rem); margin: 2rem auto; background: #fff; border: 1px solid var(--line); \
border-radius: 14px; padding: 1.75rem; box-shadow: 0 10px 30px rgba(20, 33, 61, .08); }
h1 { font-size: 1.35rem; margin: .25rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 0 0 .25rem; }
.merchant { margin: 0; color: var(--muted); }
.badge { display: inline-block; margin: 0 0 .75rem; padding: .15rem .6rem; border-radius: 999px; \
background: #fef3c7; color: #92400e; font-size: .8rem; font-weight: 600; }
.amounts { margin: 0 0 1.25rem; border-top: 1px solid var(--line); }
.amounts div { display: flex; justify-content: space-between; padding: .45rem 0; border-bottom: 1px solid var(--line); }
.amounts dt { color: var(--muted); } .amounts dd { margin: 0; font-variant-numeric: tabular-nums; }
.amounts .total dt, .amounts .total dd { color: var(--ink); font-weight: 700; font-size: 1.1rem; }
fieldset { border: 1px solid var(--line); border-radius: 10px; padding: .5rem .9rem .75rem; margin: 0 0 1rem; }
legend { padding: 0 .3rem; font-weight: 600; }
.method { display: flex; gap: .6rem; align-items: center; padding: .3rem 0; cursor: pointer; }
label { display: block; font-weight: 600; margin: .75rem 0 .3rem; } .method { font-weight: 400; margin: 0; }
.hint { color: var(--muted); font-weight: 400; font-size: .9rem; }
input[type=email], input[type=tel] { width: 100%; padding: .65rem .75rem; border: 1px solid #b8c2cf; \
border-radius: 8px; font: inherit; }
input:focus-visible, button:focus-visible { outline: 3px solid #93c5fd; outline-offset: 2px; }
.actions { display: grid; gap: .6rem; margin-top: 1.25rem; }
button { font: inherit; font-weight: 600; padding: .8rem 1rem; border-radius: 10px; \
border: 1px solid transparent; cursor: pointer; }
.pay { background: var(--brand); color: #fff; } .pay:hover { background: #1e40af; }
a.button { display: inline-block; font-weight: 600; padding: .8rem 1rem; border-radius: 10px; text-decoration: none; }
.decline { background: #fff; color: var(--bad); border-color: #fecaca; }
.error { background: #fef2f2; color: var(--bad); border: 1px solid #fecaca; padding: .6rem .8rem; border-radius: 8px; }
.status { padding: 1rem; border-radius: 10px; background: #eff6ff; }
.status.success { background: #f0fdf4; color: var(--ok); } .status.failed { background: #fef2f2; color: var(--bad); }
.status p { color: var(--ink); margin: .25rem 0 0; }
.fixed-method { margin: 0 0 .5rem; }
.secure { margin-top: 1.5rem; color: var(--muted); font-size: .8rem; text-align: center; }
`;
