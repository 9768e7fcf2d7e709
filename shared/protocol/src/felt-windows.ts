/**
 * The delay deliveries felt on each link, window by window of the emulated time they were sent
 * (FeltWindows in @gridemu/runtime): how the machine's load moved the network over the run. Each
 * window is summed up by the delays at fixed quantiles, since windows are many and a whole
 * histogram for each would not fit a report.
 */
export interface FeltWindowsState {
  /** The quantile levels, 0 to 1, each window's `q_ms` gives the delay at. */
  readonly quantiles: readonly number[];
  /** `from->to` → its windows. */
  readonly links: Record<string, FeltLinkWindows>;
  /**
   * Message type → `from->to` → that type's windows on the link, where it had enough deliveries
   * there for one span: types differ in when they are sent (load reports all at each period's tick).
   */
  readonly types?: Record<string, Record<string, FeltLinkWindows>>;
}

/**
 * One link's run, cut into spans of whole windows: a span holds what was sent from its start until
 * the next span's start (the last, until the end of the run).
 */
export interface FeltLinkWindows {
  /** A window's length, emulated s: the shortest a span is. */
  readonly window_s: number;
  /** Span start, emulated s (as a key) → how many deliveries, and the wall ms at each quantile level. */
  readonly at: Record<string, { readonly count: number; readonly q_ms: readonly number[] }>;
}

/** What is wrong with `v` as a FeltWindowsState, or undefined if nothing. */
export function feltWindowsProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be an object';
  const w = v as Record<string, unknown>;
  const q = w['quantiles'];
  if (
    !Array.isArray(q) ||
    q.length < 2 ||
    !q.every((x, i) => typeof x === 'number' && x >= 0 && x <= 1 && (i === 0 || x > (q[i - 1] as number)))
  )
    return 'quantiles must be at least two rising levels from 0 to 1';
  const links = w['links'];
  if (typeof links !== 'object' || links === null || Array.isArray(links)) return 'links must be a map';
  const linksProblem = linkWindowsProblem(links, 'links', q);
  if (linksProblem) return linksProblem;
  const types = w['types'];
  if (types === undefined) return undefined;
  if (typeof types !== 'object' || types === null || Array.isArray(types)) return 'types must be a map';
  for (const [type, l] of Object.entries(types)) {
    if (typeof l !== 'object' || l === null || Array.isArray(l)) return `types.${type} must be a map`;
    const problem = linkWindowsProblem(l, `types.${type}`, q);
    if (problem) return problem;
  }
  return undefined;
}

function linkWindowsProblem(links: object, field: string, q: readonly unknown[]): string | undefined {
  for (const [link, l] of Object.entries(links)) {
    const lw = l as Record<string, unknown> | null;
    if (typeof lw !== 'object' || lw === null) return `${field}.${link} must be an object`;
    const width = lw['window_s'];
    if (!(typeof width === 'number' && width > 0 && Number.isFinite(width)))
      return `${field}.${link}.window_s must be a positive number`;
    const at = lw['at'];
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return `${field}.${link}.at must be a map`;
    for (const [start, x] of Object.entries(at)) {
      const e = x as Record<string, unknown> | null;
      const qs = e?.['q_ms'];
      if (
        !Number.isFinite(Number(start)) ||
        typeof e?.['count'] !== 'number' ||
        !Array.isArray(qs) ||
        qs.length !== q.length ||
        !qs.every((y, i) => typeof y === 'number' && y >= 0 && (i === 0 || y >= (qs[i - 1] as number)))
      )
        return `${field}.${link}.at.${start} must be { count, q_ms } with one rising delay per quantile level`;
    }
  }
  return undefined;
}
