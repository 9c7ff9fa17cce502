/** Where an operation runs. */
export type ExecutionPath = 'gpu' | 'cpu';

/** What the caller asked for: decide automatically, or force a path. */
export type DeviceOption = 'auto' | 'gpu' | 'cpu';

/**
 * One dispatch decision, emitted before the work runs (`type: 'dispatch'`), and once more when a
 * chosen GPU run falls back to the CPU (`type: 'fallback'`).
 */
export interface DispatchEvent {
  type: 'dispatch' | 'fallback';
  /** The operation, e.g. 'voronoiPolygons'. */
  kernel: string;
  /** The size that decided it (sites for Voronoi, rows otherwise). */
  rows: number;
  path: ExecutionPath;
  /** Why, in words a log reader understands. */
  reason: string;
  /**
   * On a `fallback` event: the stage of the GPU pipeline that ran on `path` instead (e.g.
   * 'delaunay'), the rest of the run staying on the GPU; absent when the whole run moved.
   */
  stage?: string;
}

type Listener = (event: DispatchEvent) => void;
const listeners = new Set<Listener>();

/** Calls `listener` for every dispatch decision and fallback; returns a function that stops it. */
export function onDispatch(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Sends an event to every listener; a throwing listener never breaks the operation. */
export function emitDispatch(event: DispatchEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch {
      // listeners are observers; their failures are theirs
    }
  }
}
