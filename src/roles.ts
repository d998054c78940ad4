// The roles of Tessera's users, by name: pure, so that the command line (which loads nothing of the server
// before a command runs) and the server's principal share them.
/**
 * What a user may do (the route policy in src/http/policy.ts says which role may call which route): admins
 * manage the users and keys of their organization and may do everything else; project managers run projects,
 * jobs, memories, assignments and exports; translators and reviewers work on the documents assigned to them.
 */
export const ROLES = ['admin', 'project_manager', 'translator', 'reviewer'] as const;
export type Role = (typeof ROLES)[number];

/** The role's name before there were four: accepted on input, stored as project_manager. */
export const LEGACY_MEMBER_ROLE = 'member';
