import {
  ADAPTER_CROSSOVER_FACTOR,
  type AdapterSummary,
  classifyAdapter,
  type DispatchEvent,
  explainDispatch,
  GeoframeError,
  kernelProfile,
  onDispatch,
  planDispatch,
  runDispatched,
} from '@geoframe/core';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

const seen: DispatchEvent[] = [];
const stop = onDispatch((e) => seen.push(e));
afterAll(stop);
afterEach(() => {
  seen.length = 0;
  vi.unstubAllEnvs();
});

// adapter infos as WebGPU implementations report them (Dawn on Mesa's lavapipe is this machine's)
const LAVAPIPE = {
  vendor: 'mesa',
  architecture: 'software',
  device: 'llvmpipe-llvm-15-0-6-256-bits-',
  description: 'llvmpipe: Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6) 0.0.1',
  isFallbackAdapter: true,
};
const H100 = { vendor: 'nvidia', architecture: 'hopper', device: '', description: 'NVIDIA H100 80GB HBM3' };

describe('classifyAdapter', () => {
  it('software: a fallback flag or a software renderer named anywhere in the info', () => {
    expect(classifyAdapter(LAVAPIPE).class).toBe('software');
    // the flag alone decides, whatever the names say
    expect(classifyAdapter({ ...H100, isFallbackAdapter: true }).class).toBe('software');
    // and the names alone, without the flag
    const unflagged = { ...LAVAPIPE, isFallbackAdapter: false };
    for (const field of ['vendor', 'architecture', 'device', 'description'] as const) {
      const only = { vendor: '', architecture: '', device: '', description: '', [field]: unflagged[field] };
      if (field === 'vendor') continue; // 'mesa' is also the vendor of real GPUs' drivers
      expect(classifyAdapter(only).class, field).toBe('software');
    }
    for (const description of [
      'SwiftShader Device (Subzero)',
      'Microsoft Basic Render Driver',
      'lavapipe',
      'llvmpipe (LLVM 17.0.6, 256 bits)',
    ]) {
      expect(classifyAdapter({ description }).class, description).toBe('software');
    }
  });

  it('discrete, integrated and unknown by vendor and name', () => {
    const cases: [Record<string, string>, AdapterSummary['class']][] = [
      [H100, 'discrete'],
      [{ vendor: 'nvidia', description: 'NVIDIA GeForce RTX 4090' }, 'discrete'],
      [{ vendor: 'nvidia', description: 'NVIDIA Jetson AGX Orin' }, 'integrated'],
      [{ vendor: 'amd', description: 'AMD Radeon RX 7900 XTX' }, 'discrete'],
      [{ vendor: 'amd', description: 'AMD Radeon Graphics' }, 'integrated'],
      [{ vendor: 'intel', architecture: 'gen-12lp', description: 'Intel(R) UHD Graphics 770' }, 'integrated'],
      [{ vendor: 'intel', description: 'Intel(R) Arc(TM) A770 Graphics' }, 'discrete'],
      [{ vendor: 'apple', architecture: 'metal-3', description: 'Apple M2 Pro' }, 'integrated'],
      [{ vendor: 'qualcomm', description: 'Adreno (TM) 740' }, 'integrated'],
      [{}, 'unknown'],
      [{ vendor: 'somebody', description: 'a new accelerator' }, 'unknown'],
    ];
    for (const [info, cls] of cases) expect(classifyAdapter(info).class, JSON.stringify(info)).toBe(cls);
  });
});

describe('dispatch by adapter class', () => {
  const software = classifyAdapter(LAVAPIPE);
  const discrete = classifyAdapter(H100);
  const integrated = classifyAdapter({ vendor: 'intel', description: 'Intel(R) UHD Graphics 770' });
  const unknown = classifyAdapter({});

  it("auto never picks a software adapter, at any size and crossover; 'gpu' still runs on it", () => {
    for (const kernel of ['voronoiPolygons', 'delaunayTriangles', 'voronoiRaster']) {
      for (const rows of [0, 1e3, kernelProfile(kernel).crossover, 1e9]) {
        const d = planDispatch(kernel, rows, { adapter: software });
        expect(d.path).toBe('cpu');
        expect(d.reason).toContain(LAVAPIPE.description);
        expect(d.reason).toContain('software');
        expect(planDispatch(kernel, rows, { adapter: software, crossover: 0 }).path).toBe('cpu');
      }
      vi.stubEnv(`GEOFRAME_CROSSOVER_${kernel.toUpperCase()}`, '0');
      expect(planDispatch(kernel, 1e9, { adapter: software }).path).toBe('cpu');
      const forced = planDispatch(kernel, 10, { adapter: software, device: 'gpu' });
      expect(forced.path).toBe('gpu');
      expect(forced.reason).toContain('(software)');
    }
  });

  it('a discrete GPU takes the stored crossover; integrated and unknown adapters a multiple of it', () => {
    for (const kernel of ['voronoiPolygons', 'delaunayTriangles', 'voronoiRaster']) {
      const stored = kernelProfile(kernel).crossover;
      for (const adapter of [discrete, integrated, unknown]) {
        const c = stored * ADAPTER_CROSSOVER_FACTOR[adapter.class];
        expect(ADAPTER_CROSSOVER_FACTOR[adapter.class]).toBeGreaterThanOrEqual(1);
        expect(planDispatch(kernel, c - 1, { adapter }).path).toBe('cpu');
        const at = planDispatch(kernel, c, { adapter });
        expect(at.path).toBe('gpu');
        expect(at.reason).toContain(`(${adapter.class})`);
        expect(explainDispatch(kernel, c, { adapter })).toMatchObject({ crossover: c, adapter });
      }
    }
    // the class factor applies to the stored value, not to an explicit or environment override
    expect(planDispatch('voronoiPolygons', 10, { adapter: integrated, crossover: 10 }).path).toBe('gpu');
    vi.stubEnv('GEOFRAME_CROSSOVER_VORONOIPOLYGONS', '7');
    expect(planDispatch('voronoiPolygons', 7, { adapter: integrated }).path).toBe('gpu');
  });

  it('an adapter probed as absent is the CPU under auto and an error under gpu', () => {
    expect(planDispatch('voronoiPolygons', 1e9, { adapter: null }).reason).toMatch(/no WebGPU adapter/);
    expect(() => planDispatch('voronoiPolygons', 1, { adapter: null, device: 'gpu' })).toThrow(
      /no WebGPU adapter/,
    );
  });

  it('explain names the adapter, the crossover that decided and where it comes from', () => {
    const onSoftware = explainDispatch('voronoiPolygons', 33_300, { adapter: software });
    expect(onSoftware).toMatchObject({ path: 'cpu', adapter: software, crossover: Infinity });
    expect(onSoftware.crossoverSource).toMatch(/software/);
    const onIntegrated = explainDispatch('voronoiPolygons', 1, { adapter: integrated });
    expect(onIntegrated.crossoverSource).toContain(kernelProfile('voronoiPolygons').measured);
    expect(onIntegrated.crossoverSource).toContain('integrated');
    expect(explainDispatch('voronoiPolygons', 1).crossoverSource).toMatch(/not probed/);
    expect(explainDispatch('voronoiPolygons', 1).adapter).toBeNull();
  });
});

describe('runDispatched: the outcome belongs to the call', () => {
  const decision = (kernel: string): DispatchEvent => ({
    type: 'dispatch',
    kernel,
    rows: 1,
    path: 'gpu',
    reason: 'test',
  });
  const later = <T>(ms: number, value: T) => new Promise<T>((r) => setTimeout(() => r(value), ms));

  it('a stage fallback is reported once, as a fallback event naming the stage, and is the decision', async () => {
    const out = await runDispatched(decision('a'), 'auto', {
      gpu: async (report) => {
        report.stageFallback('delaunay', '3 stars not final');
        report.stageFallback('delaunay', 'again');
        return 'mixed';
      },
      cpu: () => 'cpu',
    });
    expect(out.value).toBe('mixed');
    expect(out.decision).toMatchObject({ type: 'fallback', path: 'cpu', stage: 'delaunay' });
    expect(out.decision.reason).toContain('3 stars not final');
    expect(seen.filter((e) => e.type === 'fallback')).toEqual([out.decision]);
  });

  it('concurrent runs, interleaved, each get their own decision', async () => {
    const runs = Array.from({ length: 12 }, (_, k) =>
      runDispatched(decision(`k${k}`), 'auto', {
        gpu: async (report) => {
          await later((7 * k) % 5, null);
          if (k % 3 === 1) throw new GeoframeError('GPU_DEVICE_LOST', `lost in ${k}`);
          if (k % 3 === 2) report.stageFallback('delaunay', `stage of ${k}`);
          return `gpu ${k}`;
        },
        cpu: () => later(k % 4, `cpu ${k}`),
      }),
    );
    const results = await Promise.all(runs);
    results.forEach(({ value, decision: d }, k) => {
      expect(d.kernel).toBe(`k${k}`);
      if (k % 3 === 0) expect([value, d.type]).toEqual([`gpu ${k}`, 'dispatch']);
      if (k % 3 === 1)
        expect([value, d.type, d.reason.includes(`lost in ${k}`)]).toEqual([`cpu ${k}`, 'fallback', true]);
      if (k % 3 === 2)
        expect([value, d.stage, d.reason.includes(`stage of ${k}`)]).toEqual([`gpu ${k}`, 'delaunay', true]);
    });
    // listeners still saw every event: 12 decisions and 8 fallbacks
    expect(seen.filter((e) => e.type === 'dispatch')).toHaveLength(12);
    expect(seen.filter((e) => e.type === 'fallback')).toHaveLength(8);
  });
});
