import type { MouseEvent } from 'react';

export const MAIN_CONTENT_ID = 'main-content';

/**
 * The first Tab stop of the signed-in shell: hidden until focused, it moves the focus to the
 * page's main content, past the navigation and the header (WCAG 2.4.1). Focus
 * is moved by hand: a fragment in the URL would be a navigation for the router.
 */
export function SkipLink() {
  const skip = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    document.getElementById(MAIN_CONTENT_ID)?.focus();
  };
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      onClick={skip}
      className="fixed top-3 left-3 z-50 -translate-y-[200%] rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-lg focus:translate-y-0 focus:outline-2 focus:outline-offset-2 focus:outline-indigo-600"
    >
      Skip to main content
    </a>
  );
}
