import { describe, expect, it } from 'vitest';
import { NO_FAULTS } from '@gridemu/model';
import { parseExperiment } from '@gridemu/schemes';
import { faultCount, faultsApplied, liveFuzzSpec, liveFuzzSpeedup, LIVE_FUZZ_WALL_S } from '../src/fuzz/live-seed.js';
import { randomSpec } from '../src/fuzz/random-spec.js';

describe('a fuzz seed run live (gridemu fuzz --live)', () => {
  it("runs at the speed-up that makes the simulator's run last about the wall time asked", () => {
    expect(LIVE_FUZZ_WALL_S).toBe(5);
    // A month of emulated time in 5 s: 2,592,000 / 5.
    expect(liveFuzzSpeedup(30 * 86_400)).toBe(518_400);
    // Rounded up, so that the run never lasts longer than asked.
    expect(liveFuzzSpeedup(1_001)).toBe(201);
    // A run shorter than the wall time asked lasts what it lasts, at speed-up 1 at the least.
    expect(liveFuzzSpeedup(3)).toBe(1);
    expect(liveFuzzSpeedup(0)).toBe(1);
  });

  it("adds the speed-up to the seed's experiment file, which stays the simulator's otherwise", () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const text = randomSpec(seed);
      const simulated = parseExperiment(text, `fuzz-${seed}.yaml`).spec;
      const live = parseExperiment(liveFuzzSpec(text, 4321), `fuzz-${seed}.yaml`).spec;
      expect(live.live.speedup).toBe(4321);
      expect({ ...live, live: simulated.live }).toEqual(simulated);
    }
  });

  it('says the faults a seed applies, each kind counted', () => {
    expect(faultCount(NO_FAULTS)).toBe('no faults');
    expect(
      faultCount({
        crash: [
          { process: 's1', at_s: 10, down_s: 5 },
          { process: 's2', at_s: 20, down_s: 5 },
        ],
        partition: [{ sites: ['s1'], from_s: 30, to_s: 40 }],
        drop: 0.02,
        nats_restart: [{ at_s: 50, down_s: 1 }],
      }),
    ).toBe('2 crashes, 1 partition, 1 server restart, 2% loss');
  });

  it('says what the live run made of them: a fault timed after its end never fires', () => {
    const none = {
      crashes: 0,
      crashes_applied: 0,
      partitions: 0,
      drop: 0,
      nats_restarts: { asked: 0, applied: 0 },
      lost_runs: 0,
      jobs_restarted: 0,
      lost_processor_s: 0,
      messages_dropped: 0,
      messages_lost_while_down: 0,
      messages_held_by_partition: 0,
      messages_held_by_outage: 0,
      messages_held_for_sender: 0,
    };
    expect(faultsApplied(none)).toBe('');
    expect(
      faultsApplied({
        ...none,
        crashes: 3,
        crashes_applied: 2,
        nats_restarts: { asked: 1, applied: 1 },
        lost_runs: 4,
        drop: 0.1,
        messages_dropped: 17,
      }),
    ).toBe('2 of 3 crashes applied, 1 of 1 server restarts applied, 4 runs lost and run again, 17 messages dropped');
  });
});
