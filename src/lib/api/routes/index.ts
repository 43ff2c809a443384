/**
 * The route table: every endpoint of the API, once. The server mounts it (server/app/mount-routes.ts),
 * the browser's client is typed by it (../client.ts), the OpenAPI document is generated from it
 * (server/app/openapi.ts), and the hostile-input and authorisation suites walk it (tests/api/generated/).
 * A new endpoint is one entry here, in its family's file, and one handler in server/app/handlers/.
 */
import { systemRoutes } from './system.ts';
import { historyRoutes } from './history.ts';
import { blockRoutes } from './block.ts';
import { userRoutes } from './user.ts';
import { accountRoutes } from './account.ts';
import { adminRoutes } from './admin.ts';
import { videoRoutes } from './video.ts';
import { interactionRoutes } from './interaction.ts';
import { uploadRoutes } from './upload.ts';
import { feedRoutes } from './feed.ts';
import { collectionRoutes } from './collection.ts';
import { audioRoutes } from './audio.ts';
import { photoRoutes } from './photo.ts';
import { subtitleRoutes } from './subtitle.ts';
import { notificationRoutes } from './notification.ts';
import { shareRoutes } from './share.ts';
import { moderationRoutes } from './moderation.ts';
import { likeRoutes } from './likes.ts';

export const ROUTES = {
  ...systemRoutes,
  ...historyRoutes,
  ...blockRoutes,
  ...userRoutes,
  ...accountRoutes,
  ...adminRoutes,
  ...videoRoutes,
  ...interactionRoutes,
  ...uploadRoutes,
  ...feedRoutes,
  ...collectionRoutes,
  ...audioRoutes,
  ...photoRoutes,
  ...subtitleRoutes,
  ...notificationRoutes,
  ...shareRoutes,
  ...moderationRoutes,
  ...likeRoutes,
};

export type RouteTable = typeof ROUTES;
/** Every endpoint's key: 'METHOD path'. */
export type ApiRoute = keyof RouteTable & string;
