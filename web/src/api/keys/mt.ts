// Query keys of machine translation: a source's suggestion in a memory's pair. The engine's answer does not
// change with the memory, so nothing invalidates it; it is kept like the matches.
export const mtSuggestionKey = (memoryId: number, source: string) =>
  ['mt-suggestion', memoryId, source] as const;

/** A source's fuzzy matches repaired by MT: kept like the suggestion (the memory changing makes it stale). */
export const mtRepairsKey = (memoryId: number, source: string) => ['mt-repairs', memoryId, source] as const;
/** The organization's engines, the kinds, the limits and the month's usage (the Admin screen). */
export const mtEnginesKey = ['mt-engines'] as const;
