type ParquetWasm = typeof import('parquet-wasm');

let loading: Promise<ParquetWasm> | null = null;

/**
 * parquet-wasm, loaded on first use so importing @geoframe/geo costs nothing until Parquet is
 * read or written. Node resolves the package to its build that instantiates the WebAssembly
 * module on import; the browser/bundler build exports an `init` function as default, which is
 * awaited here once.
 */
export function loadParquetWasm(): Promise<ParquetWasm> {
  loading ??= import('parquet-wasm').then(async (module) => {
    const init = (module as { default?: unknown }).default;
    if (typeof init === 'function') await (init as () => Promise<unknown>)();
    return module;
  });
  return loading;
}
