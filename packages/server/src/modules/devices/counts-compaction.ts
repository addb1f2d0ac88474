import type { FastifyBaseLogger } from 'fastify';
import type { DevicesService } from './devices.service';

/** How often the device counters' deltas are folded. */
const COUNTS_COMPACTION_MS = 5_000;

/**
 * The device counters' upkeep (device_counts): fold their deltas every few seconds, so a count
 * sums a handful of rows. A failure (a database restart) is logged and tried again next time.
 * Returns the stop (app.ts calls it when the server closes).
 */
export function startCountsCompaction(
  devices: Pick<DevicesService, 'compactCounts'>,
  log: Pick<FastifyBaseLogger, 'error'>,
): () => void {
  const compaction = setInterval(() => {
    devices.compactCounts().catch((err: unknown) => log.error({ err }, 'device counts compaction failed'));
  }, COUNTS_COMPACTION_MS);
  compaction.unref();
  return () => clearInterval(compaction);
}
