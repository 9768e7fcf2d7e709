import { describe, expect, it } from 'vitest';
import { type Message } from '@gridemu/protocol';
import { decodeEnvelope, encodeEnvelope } from '@gridemu/protocol/wire';
import { SimRuntime } from '@gridemu/runtime';
import { MESSAGE_CHECK, planGrid } from '../src/index.js';
import { arbitraryJobs, specOf } from './helpers.js';
import fc from 'fast-check';

/**
 * Every message the actors really send, in every scheme and claim mode, survives the wire: it
 * validates and decodes to exactly what was sent. (The simulator's fault hook taps every send.)
 */
describe('what actors send is valid on the wire', () => {
  for (const [scheme, claim] of [
    ['independent', 'hold'],
    ['unified', 'hold'],
    ['centralized', 'hold'],
    ['hierarchical', 'hold'],
    ['distributed', 'hold'],
    ['k-distributed', 'hold'],
    ['k-distributed', 'optimistic'],
    ['k-dual', 'hold'],
  ] as const) {
    it(`${scheme} (${claim})`, () => {
      const seen = new Set<string>();
      fc.assert(
        fc.property(arbitraryJobs(['a', 'b', 'c'], 8, { maxJobs: 25 }), (jobs) => {
          const sites = [
            { id: 'a', cpus: 8 },
            { id: 'b', cpus: 6 },
            { id: 'c', cpus: 8 },
          ];
          const spec = specOf({
            sites,
            local: { policy: scheme === 'k-dual' ? 'dual-easy' : 'easy' },
            meta: { scheme, k: 2, load_period_s: 30, claim_timeout_s: 1, claim },
            network: {
              latency_ms: 20,
              jitter_ms: 10,
              transfer: { bandwidth_mbps: 100, memory_mb_min: 100, memory_mb_max: 100 },
            },
          });
          const tap = (from: string, to: string, msg: { readonly type: string }) => {
            const d = decodeEnvelope(
              encodeEnvelope({ run: 'run-1', from, to, msg: msg as Message }),
              'run-1',
              MESSAGE_CHECK,
            );
            if (!d.ok) throw new Error(`${msg.type} from ${from} fails validation: ${d.reason}`);
            expect(d.envelope.msg).toEqual(msg);
            seen.add(msg.type);
            return false;
          };
          const runtime = new SimRuntime<Message>({ seed: 1, network: spec.network, faults: { drop: tap } });
          const plan = planGrid(
            spec,
            jobs.map((j) => ({ ...j, memory_mb: 100 })),
          );
          for (const p of plan.actors) runtime.spawn(p);
          runtime.start();
          runtime.step(100_000, () => plan.driver.done);
          expect(plan.driver.done).toBe(true);
        }),
        { numRuns: 20 },
      );
      expect(seen.size).toBeGreaterThan(3);
    });
  }
});
