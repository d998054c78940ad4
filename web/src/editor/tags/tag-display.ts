// How tag chips read: short (their number, "1", "/1", "3/") or in full (their native markup, `<code>`…`</code>`),
// one choice for every chip of the application, remembered by this browser (localStorage).
import { createContext, useCallback, useContext, useState } from 'react';

const STORAGE_KEY = 'tessera.full-tags';

export const FullTagsContext = createContext(false);

/** Whether chips show their full markup here. */
export function useFullTags(): boolean {
  return useContext(FullTagsContext);
}

function remembered(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

/** The choice, read from and written to this browser's storage. */
export function useFullTagsChoice(): [boolean, () => void] {
  const [full, setFull] = useState(remembered);
  const toggle = useCallback(() => {
    setFull((was) => {
      try {
        if (was) localStorage.removeItem(STORAGE_KEY);
        else localStorage.setItem(STORAGE_KEY, '1');
      } catch {
        // Storage refused (private mode, quota): the choice holds for this page only.
      }
      return !was;
    });
  }, []);
  return [full, toggle];
}
