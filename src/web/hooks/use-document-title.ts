import { useEffect } from 'react';

/** Sets the browser tab title to `<title> · DeviceFin`. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · DeviceFin`;
  }, [title]);
}
