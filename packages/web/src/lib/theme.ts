import { useCallback, useEffect, useState } from 'react';
import { flagStore } from './storage';

const darkStore = flagStore('darkMode');
const sidebarStore = flagStore('sidebarMinimized');

/** Dark mode, remembered under the product's local storage key and applied to <html>. */
export function useDarkMode(): [boolean, () => void] {
  const [isDark, setIsDark] = useState(darkStore.get);
  useEffect(() => {
    document.documentElement.classList.toggle('dark', isDark);
  }, [isDark]);
  const toggle = useCallback(() => {
    setIsDark((v) => {
      darkStore.set(!v);
      return !v;
    });
  }, []);
  return [isDark, toggle];
}

export function useSidebarMinimized(): [boolean, () => void] {
  const [isMinimized, setIsMinimized] = useState(sidebarStore.get);
  const toggle = useCallback(() => {
    setIsMinimized((v) => {
      sidebarStore.set(!v);
      return !v;
    });
  }, []);
  return [isMinimized, toggle];
}
