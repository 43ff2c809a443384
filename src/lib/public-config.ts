// The runtime configuration as the browser sees it: PUBLIC_* values baked in at build.
import { readRuntimeConfig } from './config.ts';

export const publicConfig = readRuntimeConfig(import.meta.env as unknown as Record<string, string | undefined>);
