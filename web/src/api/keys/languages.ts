// Query key of the languages the server knows (they never change while it runs).
export const languagesKey = ['languages'] as const;
