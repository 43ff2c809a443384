/**
 * The policy table: who may do what. The server checks it for every call (the route table names
 * one action per endpoint, and the resource it acts on: the mount checks the resource rule once
 * its loader read it; a service that decides on a resource of its own, a role change, asks
 * `refusal()` with the actor it is given), and the browser asks the same `can()` to decide what to show. No role comparison
 * lives anywhere else.
 */

export const ROLES = ['root', 'administrator', 'developer', 'user', 'blocked'] as const;
export type Role = (typeof ROLES)[number];

/** Whoever is asking: a logged-in account (any roles), or null for a guest. */
export interface Actor {
  uid: number;
  roles: readonly string[];
}

/** The one staff test; not exported: everything else asks `can()` with an action of the table. */
const isStaff = (actor: Actor | null) =>
  !!actor && (actor.roles.includes('root') || actor.roles.includes('administrator'));

/**
 * Who may, before any resource is known:
 * - anyone: guests too;
 * - signedIn: any logged-in account, blocked ones included (they can still read and clean up);
 * - member: logged in and not blocked (may write);
 * - uploader: a member who may upload (every member, or staff only when the site says so);
 * - staff: root or administrator;
 * - root: root only.
 */
export type Subject = 'anyone' | 'signedIn' | 'member' | 'uploader' | 'staff' | 'root';

/**
 * What the resource must be, once known: `owner` (the actor's own), `ownerOrStaff`, or
 * `roleChange` (root may set any roles; an administrator only those of users who neither are
 * nor become root or administrator), or `signedGrant` (a signed upload address of the image
 * service, which names its user and expires: whoever holds it may use it, and only it), or
 * `visible` (what is published for review: anyone once approved; before, its uploader and
 * staff; nobody once deleted).
 */
export type ResourceRule = 'owner' | 'ownerOrStaff' | 'roleChange' | 'signedGrant' | 'visible';

export interface Rule {
  subject: Subject;
  resource?: ResourceRule;
  note: string;
}

export const POLICY = {
  // Reading what is public; also the account calls a guest makes (register, log in, recover).
  'catalogue.read': { subject: 'anyone', note: 'public lists, videos, tags, danmaku, comments, profiles' },
  // Seeing one item (its page, its danmaku and comments, its files), by its state.
  'video.view': {
    subject: 'anyone',
    resource: 'visible',
    note: 'a video: anyone once approved; its uploader and staff while pending',
  },
  'audio.view': {
    subject: 'anyone',
    resource: 'visible',
    note: 'an audio track: anyone once approved; its uploader and staff while pending',
  },
  'photo.view': {
    subject: 'anyone',
    resource: 'visible',
    note: 'a photo post: anyone once approved; its uploader and staff before',
  },
  'media.view': {
    subject: 'anyone',
    resource: 'visible',
    note: 'an uploaded file (renditions, poster, cover): as its video or track; its uploader and staff before it is in one',
  },
  'account.guest': { subject: 'anyone', note: 'existence checks, registration, login, password recovery' },
  'image.upload': {
    subject: 'anyone',
    resource: 'signedGrant',
    note: 'the signed upload URL names the user and expires: it is the permission',
  },
  // One's own account.
  'account.self': { subject: 'signedIn', note: 'own info, settings, second factors, credentials, history' },
  'invitation.create': { subject: 'member', note: 'new invitation codes (an account old enough)' },
  'invitation.unlimited': { subject: 'staff', note: 'invitation codes without the account age and weekly limit' },
  'profile.update': { subject: 'member', note: 'own public profile and avatar' },
  'blockList.edit': { subject: 'member', note: 'add to own block and hide lists' },
  'blockList.clean': { subject: 'signedIn', note: 'read and remove from own lists, also when banned' },
  // Following uploaders and reading their feed.
  'follow.edit': { subject: 'member', note: 'follow a user (not oneself, nor across a block)' },
  'follow.clean': { subject: 'signedIn', note: 'stop following, also when banned' },
  'feed.read': { subject: 'signedIn', note: 'own feed of followed uploaders' },
  // Notifications: one's own message centre and its settings, also when banned.
  'notification.read': {
    subject: 'signedIn',
    note: 'own notifications: list, unread count, live count, marking read, settings',
  },
  'notification.staffKinds': {
    subject: 'staff',
    note: 'receive (and set the channel of) the staff-only kinds, such as a new report',
  },
  // Collections: anyone reads the public ones (private ones only their owner, checked by the service).
  'collection.create': { subject: 'member', note: 'new collections of one’s own' },
  'collection.edit': { subject: 'member', resource: 'owner', note: 'change, fill and reorder own collection' },
  'collection.clean': {
    subject: 'signedIn',
    resource: 'owner',
    note: 'delete own collection or take videos out, also when banned',
  },
  'collection.mine': { subject: 'signedIn', note: 'which of one’s collections hold a video' },
  // Writing beside a video.
  'tag.create': { subject: 'member', note: 'new tags' },
  'danmaku.send': { subject: 'member', note: 'danmaku on a visible video whose uploader did not block the sender' },
  'comment.write': { subject: 'member', note: 'comments and votes, under the same condition' },
  'comment.retract': { subject: 'signedIn', note: 'take back own vote' },
  'comment.deleteOwn': { subject: 'signedIn', resource: 'owner', note: 'delete own comment' },
  'comment.deleteAny': { subject: 'staff', note: 'delete anyone’s comment' },
  'comment.pin': { subject: 'member', resource: 'owner', note: 'pin one comment under one’s own upload' },
  'comment.deleteUnderOwnUpload': {
    subject: 'signedIn',
    resource: 'owner',
    note: 'delete any comment under one’s own upload',
  },
  // Likes of videos, tracks and photo posts.
  'like.give': { subject: 'member', note: 'like a visible item whose uploader did not block the member' },
  'like.retract': { subject: 'signedIn', note: 'take back one’s like, also when banned' },
  // Videos.
  'video.upload': { subject: 'uploader', note: 'resumable uploads, covers, committing a video' },
  'upload.resume': {
    subject: 'signedIn',
    resource: 'owner',
    note: 'offset, next bytes or removal of own unfinished upload',
  },
  'media.status': { subject: 'signedIn', resource: 'owner', note: 'processing state of own uploaded file' },
  'video.delete': { subject: 'signedIn', resource: 'ownerOrStaff', note: 'delete a video' },
  'video.mine': { subject: 'signedIn', note: 'list own videos with their status and counts' },
  'video.edit': {
    subject: 'member',
    resource: 'ownerOrStaff',
    note: 'change a video’s title, description, tags, category, cover',
  },
  'subtitle.edit': {
    subject: 'member',
    resource: 'ownerOrStaff',
    note: 'add or remove a video’s subtitle tracks; import danmaku into it',
  },
  'video.review': { subject: 'staff', note: 'review queue, approval, refusal with a reason' },
  // Photo posts.
  'photo.upload': { subject: 'uploader', note: 'committing a post of uploaded images' },
  'photo.delete': { subject: 'signedIn', resource: 'ownerOrStaff', note: 'delete a photo post' },
  'photo.review': { subject: 'staff', note: 'photo review queue, approval, refusal with a reason' },
  // Audio tracks (the same rules as videos).
  'audio.upload': { subject: 'uploader', note: 'resumable audio uploads, covers, committing a track' },
  'audio.delete': { subject: 'signedIn', resource: 'ownerOrStaff', note: 'delete an audio track' },
  'audio.mine': { subject: 'signedIn', note: 'list own tracks with their status' },
  'audio.edit': {
    subject: 'member',
    resource: 'ownerOrStaff',
    note: 'change a track’s title, artist, description, tags, category, cover',
  },
  'audio.review': { subject: 'staff', note: 'audio review queue, approval, refusal with a reason' },
  // Administration.
  'user.review': {
    subject: 'staff',
    note: 'profile review queue, banned users (a reviewer’s own profile counts as reviewed)',
  },
  'settings.admin': { subject: 'staff', note: 'the administration pages of settings' },
  'staff.entries': {
    subject: 'staff',
    note: 'see the staff-only entries every page’s shell holds: the administration group of settings, in-context translation in the language menu',
  },
  'user.roles': { subject: 'staff', resource: 'roleChange', note: 'grant and revoke roles' },
  'jobs.manage': { subject: 'staff', note: 'media jobs: their states and errors, retrying failed ones' },
  // Reports and the moderation log.
  'report.create': {
    subject: 'member',
    note: 'report a video, track, photo post, comment, danmaku or user (one open report per target)',
  },
  'report.review': { subject: 'staff', note: 'the report queue, and resolving a report (dismiss, hide, delete, ban)' },
  'moderation.log': { subject: 'staff', note: 'read the log of staff actions (nobody edits or deletes it)' },
} as const satisfies Record<string, Rule>;

export type Action = keyof typeof POLICY;

/** Site settings the policy depends on (UPLOAD_ROLE). */
export interface PolicyContext {
  whoMayUpload: 'members' | 'staff';
}
const DEFAULT_CONTEXT: PolicyContext = { whoMayUpload: 'members' };

/**
 * The resource a rule looks at: its owner, for role changes the target's roles now and next, for
 * visibility its state (approved, deleted, or any other: not yet public; null: not yet in an item).
 */
export interface Resource {
  ownerUid?: number;
  currentRoles?: readonly string[];
  nextRoles?: readonly string[];
  signedGrant?: boolean;
  status?: string | null;
}

export type Refusal = 'UNAUTHORIZED' | 'USER_BLOCKED' | 'FORBIDDEN';

const isBlocked = (actor: Actor) => actor.roles.includes('blocked');
const isPrivileged = (roles: readonly string[]) => roles.includes('root') || roles.includes('administrator');

function subjectRefusal(actor: Actor | null, subject: Subject, context: PolicyContext): Refusal | null {
  if (subject === 'anyone') return null;
  if (!actor) return 'UNAUTHORIZED';
  switch (subject) {
    case 'signedIn':
      return null;
    case 'member':
      return isBlocked(actor) ? 'USER_BLOCKED' : null;
    case 'uploader':
      if (isBlocked(actor)) return 'USER_BLOCKED';
      return context.whoMayUpload === 'staff' && !isStaff(actor) ? 'FORBIDDEN' : null;
    case 'staff':
      return isStaff(actor) ? null : 'FORBIDDEN';
    case 'root':
      return actor.roles.includes('root') ? null : 'FORBIDDEN';
  }
}

function resourceAllows(actor: Actor | null, rule: ResourceRule, resource: Resource): boolean {
  switch (rule) {
    case 'owner':
      return !!actor && resource.ownerUid === actor.uid;
    case 'ownerOrStaff':
      return !!actor && (resource.ownerUid === actor.uid || isStaff(actor));
    case 'signedGrant':
      return resource.signedGrant === true;
    case 'visible':
      if (resource.status === 'approved') return true;
      return resource.status !== 'deleted' && !!actor && (resource.ownerUid === actor.uid || isStaff(actor));
    case 'roleChange':
      if (!actor) return false;
      if (actor.roles.includes('root')) return true;
      if (!actor.roles.includes('administrator')) return false;
      return !isPrivileged(resource.currentRoles ?? []) && !isPrivileged(resource.nextRoles ?? []);
  }
}

/**
 * Why the actor may not do this, or null when they may. Without a resource only the subject is
 * checked (what the route middleware knows); with one, the resource rule too.
 */
export function refusal(
  actor: Actor | null,
  action: Action,
  resource?: Resource,
  context: PolicyContext = DEFAULT_CONTEXT,
): Refusal | null {
  const rule: Rule = POLICY[action];
  const refused = subjectRefusal(actor, rule.subject, context);
  if (refused || !resource || !rule.resource) return refused;
  return resourceAllows(actor, rule.resource, resource) ? null : 'FORBIDDEN';
}

/** May the actor do this (to this resource)? The browser shows controls by it; the server enforces it. */
export function can(actor: Actor | null, action: Action, resource?: Resource, context?: PolicyContext): boolean {
  return refusal(actor, action, resource, context) === null;
}

/** Normalises a requested role set: known roles, no duplicates, and 'blocked' alone. */
export function normalizeRoles(roles: readonly string[]): Role[] {
  const known = ROLES.filter((role) => roles.includes(role));
  if (known.includes('blocked')) return ['blocked'];
  return known.length ? known : ['user'];
}
