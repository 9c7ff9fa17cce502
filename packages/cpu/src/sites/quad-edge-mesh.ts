/**
 * Guibas–Stolfi quad-edge topology in typed arrays, the structure GEOS' incremental Delaunay
 * triangulator works on. An edge is `4 * quad + r`: r = 0 and 2 are the primal edge and its
 * reverse, 1 and 3 its dual. Only primal edges carry an origin vertex.
 *
 * It exists so that `tolerance` merges the same sites as GEOS: which sites merge depends on the
 * edge GEOS' walk stops at, so the walk and the mesh it walks must be GEOS' own (adr/0023).
 * @ignore
 */
export class QuadEdgeMesh {
  /** `next[e]`: the next edge counter-clockwise around e's origin (oNext). */
  readonly next: Int32Array;
  /** `origin[e]`: e's origin vertex (primal edges only). */
  readonly origin: Int32Array;
  quads = 0;

  constructor(maxQuads: number) {
    this.next = new Int32Array(4 * maxQuads);
    this.origin = new Int32Array(4 * maxQuads);
  }

  rot(e: number): number {
    return (e & ~3) | ((e + 1) & 3);
  }
  invRot(e: number): number {
    return (e & ~3) | ((e + 3) & 3);
  }
  sym(e: number): number {
    return e ^ 2;
  }
  oNext(e: number): number {
    return this.next[e];
  }
  oPrev(e: number): number {
    return this.rot(this.next[this.rot(e)]);
  }
  dPrev(e: number): number {
    return this.invRot(this.next[this.invRot(e)]);
  }
  lNext(e: number): number {
    return this.rot(this.next[this.invRot(e)]);
  }
  lPrev(e: number): number {
    return this.sym(this.next[e]);
  }
  orig(e: number): number {
    return this.origin[e];
  }
  dest(e: number): number {
    return this.origin[e ^ 2];
  }

  /** A new edge from `o` to `d`, alone in its own rings. */
  makeEdge(o: number, d: number): number {
    const e = 4 * this.quads++;
    if (e >= this.next.length) throw new RangeError('quad-edge mesh: capacity exceeded');
    this.next[e] = e;
    this.next[e + 1] = e + 3;
    this.next[e + 2] = e + 2;
    this.next[e + 3] = e + 1;
    this.origin[e] = o;
    this.origin[e + 2] = d;
    return e;
  }

  /** Joins or separates the origin rings of `a` and `b` (and their left faces' rings). */
  splice(a: number, b: number): void {
    const alpha = this.rot(this.next[a]);
    const beta = this.rot(this.next[b]);
    const t1 = this.next[b];
    const t2 = this.next[a];
    const t3 = this.next[beta];
    const t4 = this.next[alpha];
    this.next[a] = t1;
    this.next[b] = t2;
    this.next[alpha] = t3;
    this.next[beta] = t4;
  }

  /** A new edge from `a`'s destination to `b`'s origin, sharing `a`'s left face. */
  connect(a: number, b: number): number {
    const e = this.makeEdge(this.dest(a), this.orig(b));
    this.splice(e, this.lNext(a));
    this.splice(this.sym(e), b);
    return e;
  }

  /** Turns `e` counter-clockwise inside the quadrilateral of its two faces. */
  swap(e: number): void {
    const a = this.oPrev(e);
    const b = this.oPrev(this.sym(e));
    this.splice(e, a);
    this.splice(this.sym(e), b);
    this.splice(e, this.lNext(a));
    this.splice(this.sym(e), this.lNext(b));
    this.origin[e] = this.dest(a);
    this.origin[e ^ 2] = this.dest(b);
  }

  /** Detaches `e` from the mesh (its quad stays allocated, as in GEOS). */
  remove(e: number): void {
    this.splice(e, this.oPrev(e));
    const s = this.sym(e);
    this.splice(s, this.oPrev(s));
  }
}
