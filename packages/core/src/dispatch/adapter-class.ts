/**
 * What kind of WebGPU adapter runs the GPU path, as far as its info tells:
 * - `software`: a CPU rasteriser posing as a GPU (Mesa lavapipe/llvmpipe, SwiftShader, WARP /
 *   Microsoft Basic Render Driver, or any adapter flagged `isFallbackAdapter`). `auto` never
 *   picks it; `device: 'gpu'` still runs on it (that is how CI tests the kernels).
 * - `discrete`: a GPU with its own memory (NVIDIA, AMD Radeon RX / Pro / Instinct, Intel Arc).
 * - `integrated`: a GPU sharing the host's memory (Intel UHD/Iris, Apple, AMD APUs, Arm Mali,
 *   Qualcomm Adreno, Imagination, NVIDIA Tegra).
 * - `unknown`: the info says too little (browsers may hide vendor and architecture).
 */
export type AdapterClass = 'software' | 'integrated' | 'discrete' | 'unknown';

/** An adapter as dispatch sees it: its info (empty strings where not told) and its class. */
export interface AdapterSummary {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** WebGPU's `isFallbackAdapter` (on the adapter or its info), false when absent. */
  isFallbackAdapter: boolean;
  class: AdapterClass;
}

/** The fields of a WebGPU adapter info that {@link classifyAdapter} reads. */
export interface AdapterInfoLike {
  vendor?: string;
  architecture?: string;
  device?: string;
  description?: string;
  isFallbackAdapter?: boolean;
}

const SOFTWARE = /llvmpipe|lavapipe|swiftshader|software|basic render|\bwarp\b|softpipe/i;
const INTEGRATED_NVIDIA = /tegra|orin|xavier|jetson/i;
const DISCRETE_AMD = /\b(rx|pro w|instinct|mi\d{2,3}|vega (56|64)|radeon vii|firepro)\b/i;
const DISCRETE_INTEL = /\barc\b|data center gpu|\bmax \d{4}\b/i;
const INTEGRATED_VENDORS = /^(apple|arm|qualcomm|imagination|img-tec|samsung|broadcom|mali)/i;

/**
 * The class of an adapter from its info (see {@link AdapterClass}). Software first: a fallback
 * flag or a software renderer's name anywhere in vendor, architecture, device or description.
 * Then by vendor and name; anything else is `unknown` (never `software`, never `discrete`).
 */
export function classifyAdapter(info: AdapterInfoLike): AdapterSummary {
  const vendor = info.vendor ?? '';
  const architecture = info.architecture ?? '';
  const device = info.device ?? '';
  const description = info.description ?? '';
  const isFallbackAdapter = info.isFallbackAdapter === true;
  const all = `${vendor} ${architecture} ${device} ${description}`;
  const summary = (cls: AdapterClass): AdapterSummary => ({
    vendor,
    architecture,
    device,
    description,
    isFallbackAdapter,
    class: cls,
  });
  if (isFallbackAdapter || SOFTWARE.test(all)) return summary('software');
  const v = vendor.toLowerCase();
  const named = `${device} ${description}`;
  if (v.includes('nvidia') || /\bnvidia\b/i.test(named)) {
    return summary(INTEGRATED_NVIDIA.test(all) ? 'integrated' : 'discrete');
  }
  if (v === 'amd' || v.includes('advanced micro') || /\b(amd|radeon)\b/i.test(named)) {
    return summary(DISCRETE_AMD.test(named) ? 'discrete' : 'integrated');
  }
  if (v.includes('intel') || /\bintel\b/i.test(named)) {
    return summary(DISCRETE_INTEL.test(named) ? 'discrete' : 'integrated');
  }
  if (INTEGRATED_VENDORS.test(v) || /\b(apple m\d|mali|adreno|powervr)\b/i.test(named)) {
    return summary('integrated');
  }
  return summary('unknown');
}

/** A one-line name of the adapter for reasons and logs, e.g. "NVIDIA H100 80GB HBM3 (discrete)". */
export function adapterLabel(adapter: AdapterSummary): string {
  const name =
    adapter.description ||
    [adapter.vendor, adapter.architecture, adapter.device].filter((s) => s !== '').join(' ') ||
    'an adapter that does not name itself';
  return `${name} (${adapter.class})`;
}
