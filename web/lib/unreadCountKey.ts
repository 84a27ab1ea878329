/** The header badge's query key; live pushes write it with queryClient.setQueryData. */
export const unreadCountKey = ["messages", "unread-count"] as const;
