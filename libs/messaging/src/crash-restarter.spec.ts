import pino from 'pino';
import { KafkaJSProtocolError } from 'kafkajs';
import { startRetrying } from './crash-restarter';

describe('startRetrying', () => {
  const logger = pino({ level: 'silent' });
  const protocolError = (type: string, code: number, retriable: boolean, message: string) =>
    new KafkaJSProtocolError({ type, code, retriable, message } as unknown as string);
  const unknownTopic = () =>
    protocolError('UNKNOWN_TOPIC_OR_PARTITION', 3, true, 'This server does not host this topic-partition');

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('starts again after a retriable Kafka error (a topic still propagating), and succeeds', async () => {
    let calls = 0;
    const start = jest.fn(async () => {
      if (++calls < 3) throw unknownTopic();
    });
    const started = startRetrying(start, logger, 'g');
    await jest.advanceTimersByTimeAsync(1_000);
    await jest.advanceTimersByTimeAsync(2_000);
    await expect(started).resolves.toBeUndefined();
    expect(start).toHaveBeenCalledTimes(3);
  });

  it('fails at once on an error Kafka does not call retriable', async () => {
    const start = jest.fn(async () => {
      throw protocolError('TOPIC_AUTHORIZATION_FAILED', 29, false, 'Not authorized to access topics');
    });
    await expect(startRetrying(start, logger, 'g')).rejects.toThrow('Not authorized');
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('gives up once the time allowed has passed', async () => {
    const start = jest.fn(async () => {
      throw unknownTopic();
    });
    const started = startRetrying(start, logger, 'g', 3_000);
    const outcome = expect(started).rejects.toThrow('does not host');
    await jest.advanceTimersByTimeAsync(20_000);
    await outcome;
    expect(start.mock.calls.length).toBeGreaterThan(1);
  });
});
