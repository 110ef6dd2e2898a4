import { CursorGoneError } from './event-follower';
import { GatewayUnavailableError, eventsApi } from './events-api';

/** The gateway answers once with this status and JSON body. */
function gatewayAnswers(status: number, body: unknown): void {
  jest.spyOn(globalThis, 'fetch').mockResolvedValueOnce(new Response(JSON.stringify(body), { status }));
}

const unknownCursor = {
  result: 'error',
  code: 'validation_error',
  message: 'ending_before names no event: evt_gone',
  errors: [{ field: 'ending_before', message: 'must be the id of one of your events' }],
  request_id: 'req_1',
};

describe('eventsApi', () => {
  afterEach(() => jest.restoreAllMocks());
  const api = () => eventsApi('http://gateway.test', 'sk_test_x', new AbortController().signal);

  it('reports a pruned ending_before cursor as CursorGoneError, so the follower can re-anchor', async () => {
    gatewayAnswers(400, unknownCursor);
    await expect(api()({ ending_before: 'evt_gone', order: 'recorded', limit: '100' })).rejects.toBeInstanceOf(
      CursorGoneError,
    );
  });

  it('still treats a gateway error as worth retrying', async () => {
    gatewayAnswers(503, { result: 'error', code: 'service_unavailable', message: 'down' });
    await expect(api()({ ending_before: 'evt_1', order: 'recorded', limit: '100' })).rejects.toBeInstanceOf(
      GatewayUnavailableError,
    );
  });
});
