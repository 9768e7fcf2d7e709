import type { GruberMeta, VoSitePolicy } from './meta.js';
import { cpusOf } from './meta.js';
import type { VoUsage } from './messages.js';

/** What a decision point believes about one site: its monitor's last report plus its own dispatches since. */
export interface SiteView {
  readonly site: string;
  readonly cpus: number;
  /** Disk capacity, MB; Infinity when the site does not limit it. */
  readonly disk_mb: number;
  readonly free_cpus: number;
  /** By VO; a VO missing has no usage. */
  readonly vos: ReadonlyMap<string, VoUsage>;
  /** CPUs and disk sent here since the report, by VO (the paper's "jobs already scheduled", §2.2). */
  readonly pending: ReadonlyMap<string, { readonly cpus: number; readonly disk_mb: number }>;
}

export interface JobNeeds {
  readonly vo: string;
  readonly cpus: number;
  readonly disk_mb: number;
}

export interface Candidate {
  readonly site: string;
  /** Fraction of the site's CPUs busy, queued for or just sent to (G-LU's measure). */
  readonly used: number;
}

/**
 * §2.2 get-avail-sites for CPU, intersected with §2.3's disk test; sites in `exclude` are left
 * out. Per site s and the job's VO i:
 * - case 1: skip s if the VO's epoch usage EA_i is over its epoch allocation EP_i;
 * - case 2: keep s if the other VOs leave room for the job (Σ_k BA_k + J <= TOTAL) and the VO is
 *   under its burst allocation (BA_i + J <= BP_i), or that allocation is extensible.
 * BA counts running, queued and just-sent CPUs. The paper writes the tests with `<`; a job that
 * exactly fills an allocation is taken as fitting it here.
 * Disk: skip s if IA_i > IP_i; keep it if Σ_k IA_k + J <= TOTAL and IA_i + J <= IP_i.
 */
export function availableSites(
  views: readonly SiteView[],
  meta: Pick<GruberMeta, 'site_policy' | 'epoch_s'>,
  job: JobNeeds,
  exclude: ReadonlySet<string>,
): Candidate[] {
  const out: Candidate[] = [];
  for (const v of views) {
    if (exclude.has(v.site)) continue;
    const policy = meta.site_policy[v.site]?.[job.vo];
    if (!policy) continue;
    let othersCpu = 0;
    let othersDisk = 0;
    let ownCpu = 0;
    let ownDisk = 0;
    let ownEpoch = 0;
    let asked = 0;
    for (const u of v.vos.values()) {
      const p = v.pending.get(u.vo);
      const cpu = u.running_cpus + u.queued_cpus + (p?.cpus ?? 0);
      const disk = u.disk_mb + (p?.disk_mb ?? 0);
      asked += u.queued_cpus + (p?.cpus ?? 0);
      if (u.vo === job.vo) {
        ownCpu = cpu;
        ownDisk = disk;
        ownEpoch = u.epoch_cpu_s;
      } else {
        othersCpu += cpu;
        othersDisk += disk;
      }
    }
    for (const [vo, p] of v.pending) {
      if (v.vos.has(vo)) continue;
      asked += p.cpus;
      if (vo === job.vo) {
        ownCpu += p.cpus;
        ownDisk += p.disk_mb;
      } else {
        othersCpu += p.cpus;
        othersDisk += p.disk_mb;
      }
    }
    // Case 1: over its epoch allocation (EA_i > EP_i), as shares of the epoch's CPU-time.
    if (ownEpoch / (v.cpus * meta.epoch_s) > policy.epoch / 100) continue;
    if (!caseTwo(policy, v.cpus, othersCpu, ownCpu, job.cpus)) continue;
    // Disk (§2.3), where the site limits it.
    if (Number.isFinite(v.disk_mb)) {
      const diskShare = (policy.disk / 100) * v.disk_mb;
      if (ownDisk > diskShare) continue;
      if (!(othersDisk + job.disk_mb <= v.disk_mb && ownDisk + job.disk_mb <= diskShare)) continue;
    }
    out.push({ site: v.site, used: (v.cpus - v.free_cpus + asked) / v.cpus });
  }
  return out;
}

/**
 * Whether get-avail-sites could ever offer `site` a job of `cpus` CPUs for `vo`: with nothing else
 * there, case 2 holds. A site where it never could (no share for the VO, or one too small for the
 * job and not extensible) is no site left for a job that failed everywhere else.
 */
export function couldEverOffer(
  meta: Pick<GruberMeta, 'site_policy'>,
  site: { readonly id: string; readonly cpus: number },
  vo: string,
  cpus: number,
): boolean {
  const policy = meta.site_policy[site.id]?.[vo];
  return policy !== undefined && caseTwo(policy, site.cpus, 0, 0, cpus);
}

/** §2.2 case 2: the other VOs leave room for the job, and the VO is under its allocation or it is extensible. */
function caseTwo(policy: VoSitePolicy, siteCpus: number, othersCpu: number, ownCpu: number, jobCpus: number): boolean {
  const extensible = policy.burst > policy.cpu;
  return othersCpu + jobCpus <= siteCpus && (ownCpu + jobCpus <= cpusOf(policy.cpu, siteCpus) || extensible);
}
