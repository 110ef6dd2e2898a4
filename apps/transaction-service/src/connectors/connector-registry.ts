import { Inject, Injectable } from '@nestjs/common';
import type { PaymentMethodCode } from '@payments/domain';
import { TransactionServiceConfig } from '../config/transaction.config';
import type { Connector, ProviderName } from './connector';
import { DpoConnector } from './dpo';
import { OzowConnector } from './ozow';
import { PaynowConnector } from './paynow';

/** Which provider collects each payment method (docs/going-live.md). */
export const METHOD_PROVIDER: Readonly<Record<PaymentMethodCode, ProviderName>> = {
  ecocash: 'paynow',
  innbucks: 'paynow',
  zimswitch: 'paynow',
  dpo: 'dpo',
  ozow: 'ozow',
};

/** The connectors this build has, one per provider, with their configured base URLs. */
@Injectable()
export class ConnectorRegistry {
  private readonly byProvider: Partial<Record<ProviderName, Connector<unknown>>>;

  constructor(@Inject(TransactionServiceConfig) config: TransactionServiceConfig) {
    this.byProvider = {
      paynow: new PaynowConnector(config.PAYNOW_API_URL) as Connector<unknown>,
      dpo: new DpoConnector(config.DPO_API_URL) as Connector<unknown>,
      ozow: new OzowConnector(config.OZOW_API_URL) as Connector<unknown>,
    };
  }

  /** The provider of a payment method and its connector; null when no connector for it ships yet. */
  forMethod(code: string): { provider: ProviderName; connector: Connector<unknown> } | null {
    const provider = (METHOD_PROVIDER as Record<string, ProviderName | undefined>)[code];
    const connector = provider ? this.byProvider[provider] : undefined;
    return provider && connector ? { provider, connector } : null;
  }

  get(provider: ProviderName): Connector<unknown> | null {
    return this.byProvider[provider] ?? null;
  }
}
