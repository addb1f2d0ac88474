/* global document */
// Applied before first paint so dark mode never flashes (a file: the CSP forbids inline scripts).
try {
  if (localStorage.getItem('outpost.darkMode') === 'true') {
    document.documentElement.classList.add('dark');
  }
} catch {
  // storage unavailable: light mode
}
