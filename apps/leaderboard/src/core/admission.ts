/**
 * What a ranking answers when asked, before a win is logged, whether its player can come in:
 * - `admitted`: yes, nothing set aside;
 * - `reserved`: yes, a new player near the id arena's end, with room set aside for their id until
 *   the win is applied; if it never is (its logging failed, its match id conflicts), the caller
 *   gives the room back (`dropAdmitted`);
 * - `refused`: no room for another player id (the coded 507 LB_PLAYER_LIMIT).
 */
export type Admission = 'admitted' | 'reserved' | 'refused';
