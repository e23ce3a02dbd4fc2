import { useEffect } from 'react';

/** Sets document.title to "<title> · Greetie" while the page is shown. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title && title !== 'Greetie' ? `${title} · Greetie` : 'Greetie';
  }, [title]);
}
