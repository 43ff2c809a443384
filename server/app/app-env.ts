import type { Logger } from '../logger.ts';
import type { ServerConfig } from '../config.ts';
import type { Viewer } from '../services/sessions.ts';
import type { Services } from '../services/index.ts';

/** What the API app is built from: the services of the composition root, a logger and settings. */
export interface AppDeps {
  logger: Logger;
  config: Pick<ServerConfig, 'corsOrigins' | 'checkResponses' | 'runtime' | 'proxy' | 'whoMayUpload'>;
  services: Services;
}

/** What the API app keeps per request. */
export interface AppEnv {
  Variables: { requestId: string; logger: Logger; viewer?: Promise<Viewer | null> };
}
