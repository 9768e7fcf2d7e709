import type { Job } from '@gridemu/model';

export interface QueryRoundOptions {
  /** Every site of the grid and its processors, in grid order (ties go to the earlier site). */
  readonly sites: readonly { readonly id: string; readonly cpus: number }[];
  /** How long to wait for every answer before deciding on those in hand. */
  readonly timeout_s: number;
}

export type QueryDecision =
  /** No site is wide enough: hand the job to its origin, which rejects it as any site would. */
  | { readonly kind: 'forward-to-origin'; readonly job: Job }
  /** Ask `site` when this job would start there. */
  | { readonly kind: 'ask'; readonly queryId: number; readonly site: string; readonly job: Job }
  /** Set the round's timer. */
  | { readonly kind: 'wait'; readonly queryId: number; readonly timeout_s: number }
  /** Send the job to `site`; `cancelTimer` when the round ended before its timer. */
  | {
      readonly kind: 'place';
      readonly queryId: number;
      readonly job: Job;
      readonly site: string;
      readonly cancelTimer: boolean;
    }
  | { readonly kind: 'count'; readonly name: string };

interface Round {
  readonly job: Job;
  readonly asked: readonly string[];
  readonly answers: { site: string; start_s: number }[];
}

/**
 * The hierarchical metascheduler's query round (paper 001 §2.1.2) as a step function: at
 * submission ask every site wide enough for the job when it would start there, and send the job to
 * the earliest answer (ties: grid order). A round has a timeout, so one lost estimate never hangs a
 * run: when it fires the job goes to the best answer in hand, or, with none, to its origin if the
 * origin fits it, else to the first site that does. Late answers are counted and ignored.
 */
export class StartQueryRound {
  private readonly rounds = new Map<number, Round>();
  private nextQuery = 1;

  constructor(private readonly options: QueryRoundOptions) {}

  /** Rounds still waiting for answers. */
  get open(): number {
    return this.rounds.size;
  }

  submit(job: Job): QueryDecision[] {
    const candidates = this.options.sites.filter((s) => s.cpus >= job.procs).map((s) => s.id);
    if (candidates.length === 0) return [{ kind: 'forward-to-origin', job }];
    const queryId = this.nextQuery++;
    this.rounds.set(queryId, { job, asked: candidates, answers: [] });
    return [
      ...candidates.map((site) => ({ kind: 'ask' as const, queryId, site, job })),
      { kind: 'wait', queryId, timeout_s: this.options.timeout_s },
    ];
  }

  answer(queryId: number, site: string, start_s: number): QueryDecision[] {
    const round = this.rounds.get(queryId);
    if (!round || !round.asked.includes(site) || round.answers.some((a) => a.site === site))
      return [{ kind: 'count', name: 'queries.late_answers' }];
    round.answers.push({ site, start_s });
    if (round.answers.length < round.asked.length) return [];
    return this.decide(queryId, round, true);
  }

  timeout(queryId: number): QueryDecision[] {
    const round = this.rounds.get(queryId);
    if (!round) return [];
    return [{ kind: 'count', name: 'queries.timed_out' }, ...this.decide(queryId, round, false)];
  }

  private decide(queryId: number, round: Round, cancelTimer: boolean): QueryDecision[] {
    this.rounds.delete(queryId);
    const order = (site: string) => this.options.sites.findIndex((s) => s.id === site);
    const best = [...round.answers].sort((a, b) => a.start_s - b.start_s || order(a.site) - order(b.site))[0];
    const site = best?.site ?? (round.asked.includes(round.job.origin) ? round.job.origin : round.asked[0]!);
    return [{ kind: 'place', queryId, job: round.job, site, cancelTimer }];
  }
}
