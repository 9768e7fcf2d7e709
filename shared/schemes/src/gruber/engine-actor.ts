import type { SiteSpec } from '@gridemu/model';
import type { Address, Message } from '@gridemu/protocol';
import type { Actor, ActorContext } from '@gridemu/runtime';
import { availableSites, type SiteView } from './availability.js';
import type { GruberUsage, VoUsage } from './messages.js';
import type { GruberMeta } from './meta.js';
import { DECISIONS_TOPIC } from './names.js';
import { countViewAge } from './view-age.js';

interface Pending {
  readonly vo: string;
  readonly cpus: number;
  readonly disk_mb: number;
  readonly time_s: number;
}

interface Known {
  /** The monitor's last report; undefined until the first arrives (the site is taken as idle). */
  report?: GruberUsage;
  /** Dispatches since that report, its own and (DI-GRUBER) its peers'. */
  pending: Pending[];
  /** With `reconcile`: every dispatch of the last starvation_timeout_s, oldest first. */
  sent: Pending[];
}

/**
 * The GRUBER engine (§2.2, Figure 1): keeps the latest usage each site monitor published and the
 * dispatches made since, and answers submit hosts' one question, which sites are available for
 * this job of VO i. As one of several decision points (DI-GRUBER) it publishes every dispatch its
 * submit hosts make, and counts its peers' as its own, so their views agree up to the time a
 * decision takes to cross the bus; each monitor report replaces all of them for its site.
 */
export class EngineActor implements Actor<Message> {
  private readonly known = new Map<string, Known>();

  constructor(
    /** This decision point's number (1-based). */
    private readonly index: number,
    private readonly sites: readonly SiteSpec[],
    private readonly meta: GruberMeta,
  ) {
    for (const s of sites) this.known.set(s.id, { pending: [], sent: [] });
  }

  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    switch (msg.type) {
      case 'gruber.usage': {
        const k = this.known.get(msg.site);
        if (!k) {
          ctx.metrics.count('gruber.usage_from_unknown_site');
          return;
        }
        if (k.report && k.report.time_s > msg.time_s) return; // an older report overtaken by a newer one
        k.report = msg;
        // The report counts every job that had reached the site when it was made.
        k.pending = k.pending.filter((p) => p.time_s > msg.time_s);
        return;
      }
      case 'gruber.query': {
        const now = ctx.now();
        const views = this.views(now);
        const candidates = availableSites(
          views,
          this.meta,
          { vo: msg.vo, cpus: msg.cpus, disk_mb: msg.disk_mb },
          new Set(msg.exclude),
        );
        this.countAge(ctx, now);
        ctx.metrics.count('gruber.queries');
        if (candidates.length === 0) ctx.metrics.count('gruber.queries_none_available');
        ctx.send(from, {
          type: 'gruber.available',
          queryId: msg.queryId,
          sites: candidates.map((c) => c.site),
          used: candidates.map((c) => c.used),
        });
        return;
      }
      case 'gruber.chosen': {
        const p = { vo: msg.vo, cpus: msg.cpus, disk_mb: msg.disk_mb, time_s: ctx.now() };
        this.dispatched(msg.site, p);
        if (this.meta.decision_points > 1)
          ctx.publish(DECISIONS_TOPIC, { type: 'gruber.decision', engine: this.index, site: msg.site, ...p });
        return;
      }
      case 'gruber.decision':
        if (msg.engine === this.index) return;
        this.dispatched(msg.site, { vo: msg.vo, cpus: msg.cpus, disk_mb: msg.disk_mb, time_s: msg.time_s });
        return;
      default:
        ctx.log.warn({ type: msg.type }, 'GRUBER engine ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  private dispatched(site: string, p: Pending): void {
    const k = this.known.get(site);
    if (!k) return;
    k.pending.push(p);
    if (!this.meta.reconcile) return;
    // In time order: a peer's decision (DI-GRUBER) may arrive after a later one of this engine's.
    let i = k.sent.length;
    while (i > 0 && k.sent[i - 1]!.time_s > p.time_s) i--;
    k.sent.splice(i, 0, p);
  }

  private views(now: number): SiteView[] {
    return this.sites.map((s) => {
      const k = this.known.get(s.id)!;
      const pending = new Map<string, { cpus: number; disk_mb: number }>();
      for (const p of k.pending) {
        const x = pending.get(p.vo) ?? { cpus: 0, disk_mb: 0 };
        pending.set(p.vo, { cpus: x.cpus + p.cpus, disk_mb: x.disk_mb + p.disk_mb });
      }
      const vos = new Map<string, VoUsage>((k.report?.vos ?? []).map((u) => [u.vo, u]));
      if (this.meta.reconcile) this.reconcile(k, vos, pending, now);
      return {
        site: s.id,
        cpus: s.cpus,
        disk_mb: s.disk_gb === undefined ? Infinity : s.disk_gb * 1000,
        free_cpus: k.report?.free_cpus ?? s.cpus,
        vos,
        pending,
      };
    });
  }

  /**
   * §4.2.4: GRUBER "traces differences between how many jobs run versus how many slots the site
   * reports and tries to reconcile these numbers"; the paper gives no rule. Ours: a VO's use of the
   * site is at least the CPUs sent there within the last starvation_timeout_s. A job sent within it
   * is queued or running there, which the report shows, or gone without the engine hearing of it
   * (it failed: Euryale gives GRUBER no feedback); after it, the submit host has re-planned any job
   * that had not started. So a site that fails every job at once, and reports idle CPUs, is charged
   * for what was sent to it, as one that ran them would be. No new parameter: the window is §3.2's
   * 20-minute re-plan.
   */
  private reconcile(
    k: Known,
    vos: ReadonlyMap<string, VoUsage>,
    pending: Map<string, { cpus: number; disk_mb: number }>,
    now: number,
  ): void {
    const from = now - this.meta.starvation_timeout_s;
    let drop = 0;
    while (drop < k.sent.length && k.sent[drop]!.time_s <= from) drop++;
    if (drop > 0) k.sent.splice(0, drop);
    const sent = new Map<string, number>();
    for (const p of k.sent) sent.set(p.vo, (sent.get(p.vo) ?? 0) + p.cpus);
    for (const [vo, cpus] of sent) {
      const u = vos.get(vo);
      const p = pending.get(vo) ?? { cpus: 0, disk_mb: 0 };
      const seen = (u ? u.running_cpus + u.queued_cpus : 0) + p.cpus;
      if (cpus > seen) pending.set(vo, { cpus: p.cpus + cpus - seen, disk_mb: p.disk_mb });
    }
  }

  /** How old the engine's view was at this decision: the mean age of the sites' last reports. */
  private countAge(ctx: ActorContext<Message>, now: number): void {
    let sum = 0;
    let n = 0;
    for (const k of this.known.values()) {
      if (!k.report) continue;
      sum += now - k.report.time_s;
      n++;
    }
    if (n > 0) countViewAge(ctx.metrics, Math.max(0, sum / n));
  }
}
