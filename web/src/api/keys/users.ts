// Query keys of the signed-in caller, the organization's users and the API keys.
export const meKey = ['me'] as const;
export const usersKey = ['users'] as const;
export const apiKeysKey = ['keys'] as const;
