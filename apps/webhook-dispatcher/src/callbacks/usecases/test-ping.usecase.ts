import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import {
  PING_EVENT,
  pingPayload,
  webhookBody,
  type CallbackIdBody,
  type RpcRequest,
  type TestCallbackResult,
} from '@payments/contracts';
import { WebhookDispatcherConfig } from '../../config/webhook.config';
import { HttpSender } from '../../delivery/http-sender';
import { signingSecrets, webhookHeaders } from '../../delivery/signature';
import { DeliveryAdminStore } from '../../delivery/delivery-admin-store';
import { EventsStore } from '../../events/events-store';
import { CallbackStore } from '../callback-store';

/**
 * POST /v1/callback/{id}/test: one signed `ping` sent now through the real deliveries' SSRF-guarded
 * sender and signer, its outcome answered and logged as a one-attempt delivery. Never retried and
 * never counted towards disabling: it is the merchant checking their endpoint.
 */
@Injectable()
export class TestPingUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly callbacks: CallbackStore,
    private readonly events: EventsStore,
    private readonly deliveries: DeliveryAdminStore,
    private readonly sender: HttpSender,
    @Inject(WebhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
  ) {}

  async execute({ ctx, body }: RpcRequest<CallbackIdBody>): Promise<TestCallbackResult> {
    const callback = await this.callbacks.ownedOrNotFound(ctx, body.id);
    const id = `evt_${randomBytes(18).toString('base64url')}`;
    const createdAt = new Date();
    const data = pingPayload(callback.id);
    const payload = webhookBody({
      id,
      event: PING_EVENT,
      created_at: createdAt.toISOString(),
      mode: callback.mode,
      data,
    });
    // The sender's own deadline, shortened to the ping's: the merchant waits on this answer.
    const headers = webhookHeaders(signingSecrets(callback), id, Math.floor(createdAt.getTime() / 1000), payload);
    const result = await this.sender.send(callback.url, headers, payload, this.config.WEBHOOK_TEST_TIMEOUT_MS);
    const deliveryId = `dlv_${randomUUID().replace(/-/g, '')}`;
    await this.ds.transaction(async (m) => {
      await this.events.insertPing(m, {
        id,
        source_event_id: `ping:${id}`,
        business_id: callback.business_id,
        mode: callback.mode,
        event_type: PING_EVENT,
        payload: data,
        created_at: createdAt,
      });
      await this.deliveries.recordPing(m, {
        publicId: deliveryId,
        eventId: id,
        callbackId: callback.id,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error?.slice(0, 500) ?? null,
      });
    });
    return {
      event_id: id,
      delivery_id: deliveryId,
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      error: result.error,
    };
  }
}
