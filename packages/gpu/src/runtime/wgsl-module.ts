/**
 * A WGSL library: a named piece of source and the libraries it needs before it (adr/0016).
 * Kernels put libraries into their source with {@link linkWgsl}, which orders them, so that the
 * order lives in the modules' declared dependencies, not in comments.
 */
export interface WgslModule {
  /** Unique among modules, e.g. `'exact/wide-int'`; names the module in errors. */
  readonly name: string;
  /** The WGSL it contributes (functions, constants, structs; no bindings). */
  readonly source: string;
  /** Modules its source uses, each placed before it. */
  readonly deps: readonly WgslModule[];
}

/** A module named `name` with `source`, needing `deps` before it. */
export function wgslModule(name: string, source: string, deps: readonly WgslModule[] = []): WgslModule {
  return Object.freeze({ name, source, deps: Object.freeze([...deps]) });
}

/**
 * The source of `modules` and of everything they need, each module once and after its
 * dependencies (depth first, in the order given).
 *
 * @throws Error naming the modules when a dependency cycle is found, or when two different
 *   modules share a name (a kernel would get two definitions of the same functions).
 */
export function linkWgsl(...modules: readonly WgslModule[]): string {
  return linkOrder(...modules)
    .map((module) => module.source)
    .filter((source) => source !== '')
    .join('\n');
}

/** The modules {@link linkWgsl} puts together, in its order (dependencies first, each once). */
export function linkOrder(...modules: readonly WgslModule[]): WgslModule[] {
  const done = new Set<WgslModule>();
  const byName = new Map<string, WgslModule>();
  const path: WgslModule[] = [];
  const out: WgslModule[] = [];
  const visit = (module: WgslModule) => {
    if (done.has(module)) return;
    const at = path.indexOf(module);
    if (at >= 0) {
      const cycle = [...path.slice(at), module].map((m) => m.name).join(' → ');
      throw new Error(`WGSL modules depend on each other in a cycle: ${cycle}`);
    }
    const named = byName.get(module.name);
    if (named !== undefined && named !== module) {
      throw new Error(`two different WGSL modules are named '${module.name}'`);
    }
    byName.set(module.name, module);
    path.push(module);
    for (const dep of module.deps) visit(dep);
    path.pop();
    done.add(module);
    out.push(module);
  };
  for (const module of modules) visit(module);
  return out;
}
