import { describe, expect, it } from 'vitest';
import { lostConnectionNote } from '../src/lost-connection-note.js';

describe("a stalled run's note of the driver's lost connections", () => {
  it('names how often and when the driver was cut off, and why that loses jobs without a journal', () => {
    const note = lostConnectionNote(
      [
        { from_s: 549_736.459, to_s: 549_787.226 },
        { from_s: 600_000, to_s: 600_010 },
      ],
      false,
    );
    expect(note).toMatch(/^\. The driver lost its connection to NATS 2 times \(first at emulated 549736 s\)/);
    expect(note).toContain('without live.journal what was on its way then is lost');
    expect(note).toContain('nats/nats-server.log');
    expect(lostConnectionNote([{ from_s: 5, to_s: 6 }], false)).toContain('NATS once');
  });

  it('says nothing when the connection held, or when the journal resends what was lost', () => {
    expect(lostConnectionNote([], false)).toBe('');
    expect(lostConnectionNote([{ from_s: 5, to_s: 6 }], true)).toBe('');
  });
});
