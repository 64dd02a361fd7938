// Who may do what (issue 37): a contributor sends contributions and sees their own; an editor
// also reviews everyone's; an admin also manages accounts (from the command line).
export const ROLES = ['contributor', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: string): value is Role => ROLES.some((role) => role === value);

/** Whether a role may review contributions (/moderate/, /history/). */
export const mayModerate = (role: Role) => role === 'editor' || role === 'admin';

/**
 * Whether a signed-in account may issue a password reset link for an account of `target`'s
 * role from the site: an editor for contributors only, an admin for anyone (so a stolen
 * editor's session cannot take over an editor's or an admin's account). The command line may
 * issue one for anyone.
 */
export const mayIssueReset = (issuer: Role, target: Role) => issuer === 'admin' || (issuer === 'editor' && target === 'contributor');

/** The rule above, as the page that issues links says it. */
export const RESET_RULE = 'Editors may issue a link for a contributor\'s account; admins for any account. An editor\'s or an admin\'s account is reset by an admin, or on the server with heritage-api users reset NAME.';
