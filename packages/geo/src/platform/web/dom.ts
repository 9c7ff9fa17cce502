/**
 * The few DOM shapes the web platform modules touch, declared here so the packages compile
 * without the DOM library (their code also runs in Node and Deno). Absent outside a page.
 */
export interface PageElement {
  remove(): void;
}
export interface PageLink extends PageElement {
  href: string;
  download: string;
  click(): void;
}
export interface PageCanvas extends PageElement {
  width: number;
  height: number;
  getContext(kind: '2d'): { drawImage(image: unknown, x: number, y: number): void } | null;
  toBlob(done: (blob: Blob | null) => void, type: string): void;
}
export interface PageImage {
  src: string;
  naturalWidth: number;
  naturalHeight: number;
  decode(): Promise<void>;
}
export interface PageDocument {
  body: { append(node: PageElement): void };
  createElement(tag: 'a'): PageLink;
  createElement(tag: 'canvas'): PageCanvas;
}

/** The page's document and Image constructor, or null outside a page (Node, Deno, a worker). */
export function page(): { document: PageDocument; Image: new () => PageImage } | null {
  const scope = globalThis as { document?: PageDocument; Image?: new () => PageImage };
  return scope.document && scope.Image ? { document: scope.document, Image: scope.Image } : null;
}
