import { useEffect } from 'react';

const QUESTION = 'The demo draft has unsaved changes. Leave without saving them?';

/**
 * While there are unsaved changes: the browser asks before a reload or closing the tab, and a
 * click on a link inside the app (the navigation, another page) asks first. The listener runs in
 * the capture phase on the document, before the router's own click handler.
 */
export function useUnsavedChangesWarning(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    const click = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || link.target === '_blank') return;
      if (new URL(link.href, window.location.href).origin !== window.location.origin) return;
      if (!window.confirm(QUESTION)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', click, true);
    };
  }, [dirty]);
}
