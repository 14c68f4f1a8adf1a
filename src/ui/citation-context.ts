import { createContext } from 'react';

/** One source an answer can cite by number (see `citationsOf`). */
export interface Citation {
  /** The number answers cite it by: `[n]`. */
  n: number;
  url: string;
  title: string;
  /** Path on the docs site, when the source names one. */
  path?: string;
  /** A passage of the page, when the search result carries one. */
  snippet?: string;
  /** A source part (the answer says it used it) rather than a search hit. */
  fromSource: boolean;
}

export interface CitationScope {
  citations: Citation[];
  newTab: boolean;
}

/**
 * The citations of the message being rendered. A context rather than a prop: Markdown blocks are
 * memoised and must not re-render when sources arrive; only the `[n]` links read it.
 */
export const CitationContext = createContext<CitationScope>({
  citations: [],
  newTab: true,
});
