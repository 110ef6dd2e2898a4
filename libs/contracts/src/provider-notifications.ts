// ---- providers.notify (a provider's status update, posted to the gateway's public notification URL)
export interface ProviderNotifyBody {
  provider: string;
  /**
   * From the notification URL's path: our transaction's public id (txn_…), a refund's (rfd_…), or
   * absent when the provider posts every update to one URL per account (DPO's push).
   */
  id?: string;
  /** The body exactly as the provider sent it (its signature covers it). */
  body: string;
  content_type?: string;
}

export interface ProviderNotifyResult {
  accepted: boolean;
  /** Not applied now (the provider could not be asked about it): the provider should send it again. */
  retry_later?: boolean;
}

// ---- providers.return (a customer's browser back from a provider's payment page)
export interface ProviderReturnBody {
  provider: string;
  transaction_id: string;
}

/** The hosted checkout page the customer goes on to (it shows the outcome, or sends them to the merchant). */
export interface ProviderReturnResult {
  checkout_id: string;
}
