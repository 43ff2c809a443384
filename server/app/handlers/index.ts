import type { AllHandlers } from '../mount-routes.ts';
import { systemHandlers } from './system.ts';
import { historyHandlers } from './history.ts';
import { blockHandlers } from './block.ts';
import { userHandlers } from './user.ts';
import { rbacHandlers } from './rbac.ts';
import { adminHandlers } from './admin.ts';
import { videoHandlers } from './video.ts';
import { feedHandlers } from './feed.ts';
import { collectionHandlers } from './collection.ts';
import { audioHandlers } from './audio.ts';
import { photoHandlers } from './photo.ts';
import { notificationHandlers } from './notification.ts';
import { shareHandlers } from './share.ts';
import { moderationLogHandlers, reportHandlers } from './moderation.ts';

/** One handler per entry of the route table (the type refuses a missing or an extra one). */
export const allHandlers: AllHandlers = {
  ...systemHandlers,
  ...historyHandlers,
  ...blockHandlers,
  ...userHandlers,
  ...rbacHandlers,
  ...adminHandlers,
  ...videoHandlers,
  ...feedHandlers,
  ...collectionHandlers,
  ...audioHandlers,
  ...photoHandlers,
  ...notificationHandlers,
  ...shareHandlers,
  ...reportHandlers,
  ...moderationLogHandlers,
};
