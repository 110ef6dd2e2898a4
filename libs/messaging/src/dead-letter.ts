import type { KafkaMessage, Producer } from 'kafkajs';
import { DeadLetterHeaders } from '@payments/contracts';
import type { MessageMeta } from './consumer-options';
import { ownHeaders } from './replay';

/**
 * Sends a message a consumer group cannot apply to its dead-letter topic. It keeps the key and the
 * message's own headers, so a dead-letter replay delivers it unchanged.
 */
export async function sendToDeadLetter(
  producer: Producer,
  topic: string,
  group: string,
  meta: MessageMeta,
  message: KafkaMessage,
  reason: string,
): Promise<void> {
  await producer.send({
    topic,
    acks: -1,
    messages: [
      {
        key: message.key,
        value: message.value,
        headers: {
          ...ownHeaders(message.headers),
          [DeadLetterHeaders.Reason]: reason.slice(0, 1000),
          [DeadLetterHeaders.OriginalTopic]: meta.topic,
          [DeadLetterHeaders.OriginalPartition]: String(meta.partition),
          [DeadLetterHeaders.OriginalOffset]: meta.offset,
          [DeadLetterHeaders.ConsumerGroup]: group,
        },
      },
    ],
  });
}
