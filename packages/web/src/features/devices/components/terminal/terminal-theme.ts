/** The terminal's colours, light or dark page alike (a terminal is dark). */
export const TERMINAL_THEME = {
  background: '#020617',
  foreground: '#e2e8f0',
  cursor: '#a5b4fc',
  selectionBackground: '#4338ca80',
};
