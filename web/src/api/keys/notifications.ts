// Query key of the caller's notifications (the header's bell).
export const notificationsKey = ['notifications'] as const;
