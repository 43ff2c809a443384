import type { Logger } from '../logger.ts';
import type { Services } from '../services/index.ts';

/** Every hour: view records past their hour and rate-limit counters past their window are pruned. Returns the stop. */
export function startHousekeeping(services: Pick<Services, 'videos' | 'rateLimits'>, logger: Logger): () => void {
  const timer = setInterval(() => {
    services.videos.pruneViews().catch((error) => logger.warn('pruning view records failed', { err: error }));
    services.rateLimits.prune().catch((error) => logger.warn('pruning rate-limit counters failed', { err: error }));
  }, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
