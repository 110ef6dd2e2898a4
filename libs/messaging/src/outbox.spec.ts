import { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } from 'kafkajs';
import { relayFailure } from './outbox';

const protocolError = (type: string, code: number) => new KafkaJSProtocolError({ type, code, retriable: true, message: `${type} from the broker` } as unknown as string);

describe('relayFailure', () => {
  it('names missing in-sync replicas behind a send that ran out of retries', () => {
    for (const [type, code] of [['NOT_ENOUGH_REPLICAS', 19], ['NOT_ENOUGH_REPLICAS_AFTER_APPEND', 20]] as const) {
      const err = new KafkaJSNumberOfRetriesExceeded(protocolError(type, code), { retryCount: 8, retryTime: 5000 });
      const failure = relayFailure(err);
      expect(failure.reason).toBe('not_enough_replicas');
      expect(failure.types).toEqual([type]);
      expect(failure.explanation).toContain(type);
      expect(failure.explanation).toMatch(/min\.insync\.replicas/);
    }
  });

  it('tells a partition without a leader, a lost connection and anything else apart', () => {
    expect(relayFailure(protocolError('NOT_LEADER_OR_FOLLOWER', 6)).reason).toBe('leader_unavailable');
    expect(relayFailure(new KafkaJSConnectionError('Connection error: ECONNREFUSED')).reason).toBe('connection');
    expect(relayFailure(new Error('boom'))).toEqual({ reason: 'other', types: [], explanation: 'boom' });
  });
});
