// ---- providers.notify (a provider's status update, posted to the gateway's public notification URL)
export interface ProviderNotifyBody {
  provider: string;
  /** Our transaction's public id, from the notification URL path. */
  transaction_id: string;
  /** The body exactly as the provider sent it (its signature covers it). */
  body: string;
  content_type?: string;
}

export interface ProviderNotifyResult {
  accepted: boolean;
}
