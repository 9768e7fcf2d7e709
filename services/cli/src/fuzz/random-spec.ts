import { Rng } from '@gridemu/runtime';
import { NO_FAULTS, runEpoch_s, type ExperimentSpec, type Job } from '@gridemu/model';
import {
  loadExperimentWorkload,
  parseExperiment,
  SCHEME_MODULES,
  type FuzzDraw,
  type FuzzSpecs,
} from '@gridemu/schemes';

/** Every family that can be fuzzed, each as often as its weight says, in registry order. */
const DRAWN: readonly FuzzSpecs[] = SCHEME_MODULES.flatMap((m) =>
  m.fuzz ? Array.from({ length: m.fuzz.weight }, () => m.fuzz!) : [],
);

/**
 * The experiment of one fuzz seed, its faults timed from its workload's first submission: drawn
 * once to learn when that is (faults aside), then again, the same draws, with the faults from there.
 */
export async function fuzzExperiment(seed: number): Promise<{ text: string; spec: ExperimentSpec; jobs: Job[] }> {
  const file = `fuzz-${seed}.yaml`;
  const draft = parseExperiment(randomSpec(seed), file).spec;
  const first = runEpoch_s((await loadExperimentWorkload({ ...draft, faults: NO_FAULTS }, { specFile: file })).jobs);
  const text = randomSpec(seed, first);
  const { spec } = parseExperiment(text, file);
  return { text, spec, jobs: (await loadExperimentWorkload(spec, { specFile: file })).jobs };
}

/**
 * A small random experiment file for one fuzz seed: a family drawn from the registry, random
 * latency and jitter, and the rest drawn by the family (SchemeModule.fuzz). The same seed always
 * gives the same text, which is how a failure is reproduced (`gridemu fuzz --seed S` prints it).
 */
export function randomSpec(seed: number, faultsFrom_s = 0): string {
  const rng = new Rng(seed, 'fuzz');
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)]!;
  const family = pick(DRAWN);
  const latency = pick([0, 1, 10, 50, 200]);
  const jitter = latency === 0 ? 0 : pick([0, Math.round(latency / 2)]);
  const draw: FuzzDraw = {
    rng,
    pick,
    head: [`name: fuzz-${seed}`, `seed: ${seed}`],
    network: `network: { latency_ms: ${latency}, jitter_ms: ${jitter} }`,
    faultsFrom_s,
    serverRng: new Rng(seed, 'fuzz-server'),
  };
  return family.spec(draw);
}
