let installed = false;

/**
 * kafkajs 2.2.4 arms its pending-request timer with `throttledUntil - Date.now()`, a large negative
 * number unless a broker throttled the client. Node 24 prints a TimeoutNegativeWarning for each
 * (kafkajs issue #1751, not fixed upstream); the timer fires after 1 ms exactly as on older Node.
 * Only that warning, raised from inside kafkajs, is dropped: every other warning reaches the
 * listeners that were there before (Node's own printing included).
 */
export function dropKafkajsNegativeTimerWarning(): void {
  if (installed) return;
  installed = true;
  const previous = process.listeners('warning');
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error) => {
    if (warning.name === 'TimeoutNegativeWarning' && /[\\/]kafkajs[\\/]/.test(warning.stack ?? '')) return;
    for (const listener of previous) listener.call(process, warning);
  });
}
