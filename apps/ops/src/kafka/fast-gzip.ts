import { promisify } from 'node:util';
import { constants, gzip, unzip } from 'node:zlib';
import { CompressionCodecs, CompressionTypes } from 'kafkajs';

const gzipAsync = promisify(gzip);
const unzipAsync = promisify(unzip);

/**
 * kafkajs's gzip codec at zlib's fastest level instead of its default (6): half the deflate time
 * of a replay bundle for about 5 % more bytes. Any gzip reader opens it, so consumers need nothing.
 */
export function useFastGzip(): void {
  CompressionCodecs[CompressionTypes.GZIP] = () => ({
    compress: (encoder: { buffer: Buffer }) => gzipAsync(encoder.buffer, { level: constants.Z_BEST_SPEED }),
    decompress: (buffer: Buffer) => unzipAsync(buffer),
  });
}
