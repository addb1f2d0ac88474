import { STORAGE_KEYS } from '@outpost/contract/limits';

// Local storage keys from the product description (docs/product/sign-in.md#shell): the token, dark mode, sidebar-minimised flag.
function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key: string, value: string | null): void {
  try {
    if (value === null) {
      localStorage.removeItem(key);
    } else {
      localStorage.setItem(key, value);
    }
  } catch {
    // storage unavailable (private mode): the choice lasts for this page only
  }
}

export const tokenStore = {
  get: () => read(STORAGE_KEYS.token),
  set: (token: string) => write(STORAGE_KEYS.token, token),
  clear: () => write(STORAGE_KEYS.token, null),
};

export const flagStore = (key: 'darkMode' | 'sidebarMinimized') => ({
  get: () => read(STORAGE_KEYS[key]) === 'true',
  set: (value: boolean) => write(STORAGE_KEYS[key], String(value)),
});
