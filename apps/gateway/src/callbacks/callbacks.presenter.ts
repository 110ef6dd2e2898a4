import type { CallbackView } from '@payments/contracts';
import type { CallbackListItem, CallbackLong } from './callback.responses';

/** The fetch shape: the spec's longer form, whose id is a string. */
export function presentCallback(c: CallbackView): CallbackLong {
  return {
    id: String(c.id),
    url: c.url,
    description: c.description,
    events: c.events,
    is_active: c.is_active,
    failure_count: c.failure_count,
    last_triggered: c.last_triggered,
    date_created: c.date_created,
    date_updated: c.date_updated,
  };
}

/** The list's superset item (docs/contract.md, Quirks): both spec shapes at once, id as an integer. */
export function presentCallbackListItem(c: CallbackView): CallbackListItem {
  return { ...presentCallback(c), id: c.id, dateCreated: c.date_created };
}
