import type { Rng } from '@gridemu/runtime';

/**
 * Paper 003's grid (§4, Figure 4): computational resources (CRs) spread over sites, each site a LAN
 * in star topology, the sites and the general services (scheduler, information service, checkpoint
 * server) joined by a WAN. What §4 gives, and our reading where it gives a range:
 * - 4 sites, 128 CRs between them, dealt round robin (32 each);
 * - each CR's power drawn uniformly from 100 to 4000 MIPS;
 * - WAN links of 1 Gbit/s; each pair of locations (sites and the services) gets a latency drawn
 *   uniformly from 3 to 10 ms, the same both ways;
 * - LAN links of 1 Gbit/s and 1 ms;
 * - inputs, outputs and checkpoints of 1 MB (10^6 bytes), checkpointing delays uniform in 0.1–1 s.
 * Everything is drawn from the seed's stream, so one seed gives one grid.
 */
export interface DagGridParams {
  readonly sites: number;
  readonly resources: number;
  readonly mips: readonly [number, number];
  readonly wan_latency_ms: readonly [number, number];
  readonly lan_latency_ms: number;
  readonly bandwidth_bps: number;
  readonly file_bytes: number;
  readonly checkpoint_delay_s: readonly [number, number];
  /** Each CR's MIPS, in order, instead of drawing them from `mips`; its length is the number of resources. */
  readonly mips_list?: readonly number[];
}

export const PAPER_003_GRID: DagGridParams = {
  sites: 4,
  resources: 128,
  mips: [100, 4000],
  wan_latency_ms: [3, 10],
  lan_latency_ms: 1,
  bandwidth_bps: 1e9,
  file_bytes: 1e6,
  checkpoint_delay_s: [0.1, 1],
};

/** Where the scheduler, the information service and the checkpoint server live. */
export const SERVICES = 'services';

export interface DagResource {
  readonly id: string;
  readonly site: string;
  readonly mips: number;
}

export class DagGrid {
  readonly resources: readonly DagResource[];
  readonly sites: readonly string[];
  private readonly byId = new Map<string, DagResource>();
  private readonly wan = new Map<string, number>();

  /**
   * The grid of `params`, or, given `sites`, one site per entry with `cpus` CRs each (an experiment
   * file's sites: `params.sites` and `params.resources` are then theirs).
   */
  constructor(
    readonly params: DagGridParams,
    rng: Rng,
    sites?: readonly { readonly id: string; readonly cpus: number }[],
  ) {
    if (sites !== undefined) {
      this.sites = sites.map((s) => s.id);
      let k = 0;
      this.resources = sites.flatMap((s) =>
        Array.from({ length: s.cpus }, (_, i) => ({
          id: `${s.id}.cr${i + 1}`,
          site: s.id,
          mips: params.mips_list?.[k++] ?? Math.round(rng.uniform(params.mips[0], params.mips[1])),
        })),
      );
    } else {
      if (params.mips_list !== undefined && params.mips_list.length !== params.resources)
        throw new Error(`a DAG grid's mips_list gives ${params.mips_list.length} resources for ${params.resources}`);
      if (!(params.sites >= 1 && params.resources >= params.sites))
        throw new Error(
          `a DAG grid needs at least one resource per site (sites ${params.sites}, resources ${params.resources})`,
        );
      this.sites = Array.from({ length: params.sites }, (_, i) => `site${i + 1}`);
      this.resources = Array.from({ length: params.resources }, (_, i) => ({
        id: `cr${i + 1}`,
        site: this.sites[i % params.sites]!,
        mips: params.mips_list?.[i] ?? Math.round(rng.uniform(params.mips[0], params.mips[1])),
      }));
    }
    for (const r of this.resources) this.byId.set(r.id, r);
    const places = [...this.sites, SERVICES];
    for (let a = 0; a < places.length; a++) {
      for (let b = a + 1; b < places.length; b++)
        this.wan.set(
          pairKey(places[a]!, places[b]!),
          rng.uniform(params.wan_latency_ms[0], params.wan_latency_ms[1]) / 1000,
        );
    }
  }

  resource(id: string): DagResource {
    const r = this.byId.get(id);
    if (!r) throw new Error(`assertion: no resource ${id} in the DAG grid`);
    return r;
  }

  /** The site of a resource, or SERVICES itself. */
  locationOf(place: string): string {
    return place === SERVICES ? SERVICES : this.resource(place).site;
  }

  /** One-way latency between two places (resources or SERVICES), in seconds: 0 on one resource, the LAN's within a site, else the WAN link's. */
  latency_s(from: string, to: string): number {
    if (from === to) return 0;
    const a = this.locationOf(from);
    const b = this.locationOf(to);
    if (a === b) return this.params.lan_latency_ms / 1000;
    return this.wan.get(pairKey(a, b))!;
  }

  /** Time to move `bytes` from one place to another: latency plus size over bandwidth; 0 on one resource. */
  transfer_s(from: string, to: string, bytes: number): number {
    if (from === to) return 0;
    return this.latency_s(from, to) + (bytes * 8) / this.params.bandwidth_bps;
  }

  /**
   * What moving a running task costs it (§3, §4), in seconds: the checkpoint is taken
   * (`checkpoint_s`), sent to the checkpoint server, and sent on with the task's inputs to the new
   * resource, where it restarts.
   */
  migration_s(from: string, to: string, inputs: number, checkpoint_s: number): number {
    const f = this.params.file_bytes;
    return checkpoint_s + this.transfer_s(from, SERVICES, f) + this.transfer_s(SERVICES, to, f * (1 + inputs));
  }
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}
