// Who may do what (issue 37): a contributor sends contributions and sees their own; an editor
// also reviews everyone's; an admin also manages accounts (from the command line).
export const ROLES = ['contributor', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** Whether a role may review contributions (/moderate/, /history/). */
export const mayModerate = (role: Role) => role === 'editor' || role === 'admin';
