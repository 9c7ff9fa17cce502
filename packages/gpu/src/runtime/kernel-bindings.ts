/**
 * A kernel's buffers by name (adr/0016): each kernel declares `{name: binding}` next to its WGSL,
 * call sites pass `{name: buffer}`, and the declared names are checked against the WGSL's
 * `@group(0) @binding(n) var<…> name` when its pipeline is created (so a mismatch fails the first
 * test that runs the kernel, and `kernel-bindings.test.ts` checks every kernel without a device).
 * Binding 0 is the parameter block the recorders bind; it is not declared.
 */

/** A declared binding: its number, or its number and `optional` when constants may leave it out. */
export type BindingDecl = number | { readonly binding: number; readonly optional: true };

/** Names of a kernel's buffers and their `@binding` numbers. */
export type BindingLayout = Readonly<Record<string, BindingDecl>>;

/** A whole buffer, or a byte range of one. */
export type BoundBuffer =
  | GPUBuffer
  | { readonly buffer: GPUBuffer; readonly offset: number; readonly size: number };

type RequiredNames<L> = { [K in keyof L]: L[K] extends number ? K : never }[keyof L];
type OptionalNames<L> = Exclude<keyof L, RequiredNames<L>>;

/** The buffers a call binds: every required name of `L`, the optional ones where present. */
export type BoundBuffers<L extends BindingLayout> = { readonly [K in RequiredNames<L>]: BoundBuffer } & {
  readonly [K in OptionalNames<L>]?: BoundBuffer;
};

/** One entry of a bind group (whole buffer when offset and size are absent). */
export interface BindingEntry {
  binding: number;
  buffer: GPUBuffer;
  offset?: number;
  size?: number;
}

function numberOf(decl: BindingDecl): number {
  return typeof decl === 'number' ? decl : decl.binding;
}

/** Bind-group entries of `buffers` at the numbers `layout` declares (absent optional ones left out). */
export function bindingEntries<L extends BindingLayout>(layout: L, buffers: BoundBuffers<L>): BindingEntry[] {
  const given = buffers as Readonly<Record<string, BoundBuffer | undefined>>;
  const entries: BindingEntry[] = [];
  for (const [name, decl] of Object.entries(layout)) {
    const bound = given[name];
    if (bound === undefined) {
      if (typeof decl === 'number') throw new Error(`no buffer for binding '${name}'`);
      continue;
    }
    const binding = numberOf(decl);
    entries.push('buffer' in bound ? { binding, ...bound } : { binding, buffer: bound });
  }
  return entries;
}

/** The group-0 bindings a WGSL source declares, name → number (binding 0 included). */
export function wgslBindings(source: string): Map<string, number> {
  const found = new Map<string, number>();
  const pattern = /@group\(\s*0\s*\)\s*@binding\(\s*(\d+)\s*\)\s*var(?:<[^>]*>)?\s+(\w+)/g;
  for (const match of source.matchAll(pattern)) found.set(match[2] as string, Number(match[1]));
  return found;
}

/**
 * Why `layout` does not describe the bindings `source` declares (besides binding 0), or null
 * when it does: a name the WGSL lacks (unless optional), a binding the layout lacks, or a number
 * that differs.
 */
export function bindingMismatch(layout: BindingLayout, source: string): string | null {
  const inWgsl = wgslBindings(source);
  const problems: string[] = [];
  for (const [name, decl] of Object.entries(layout)) {
    const at = inWgsl.get(name);
    if (at === undefined) {
      if (typeof decl === 'number') problems.push(`'${name}' (@binding(${decl})) is not in the WGSL`);
    } else if (at !== numberOf(decl)) {
      problems.push(`'${name}' is declared @binding(${numberOf(decl)}) but the WGSL has @binding(${at})`);
    }
  }
  for (const [name, at] of inWgsl) {
    if (at !== 0 && !(name in layout))
      problems.push(`the WGSL's '${name}' (@binding(${at})) is not declared`);
  }
  return problems.length === 0 ? null : problems.join('; ');
}

/** The bind-group entry of `entry` (its range when it has one). */
export function groupEntry({ binding, buffer, offset, size }: BindingEntry): GPUBindGroupEntry {
  return { binding, resource: offset === undefined ? { buffer } : { buffer, offset, size } };
}
