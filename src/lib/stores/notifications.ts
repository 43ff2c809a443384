import { atom } from 'nanostores';

/**
 * The member's unread notification count, shared by the header's bell and the message centre
 * (null: not known yet, or nobody logged in). The bell's live stream sets it; the message centre
 * sets it from its list answers and its marking calls.
 */
export const $unreadNotifications = atom<number | null>(null);
