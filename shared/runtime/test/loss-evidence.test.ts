import { describe, expect, it } from 'vitest';
import { DurableOutbox, LossEvidence, wallNow_ms } from '../src/live.js';

describe('LossEvidence (RACK, RFC 8985)', () => {
  it('calls a message lost once a later one was answered and a further answer left it out, after the reordering window', () => {
    const e = new LossEvidence(25);
    // Answer 1 from s2 holds message 5 (sent after 3 and 4), heard at 1,000 ms.
    e.heard('s2', 5, 1000, 'received');
    e.answerEnded('s2', true, 0);
    // Within the window, or with no answer since: reordering or a stall, not a loss.
    expect(e.lost('s2', 3, 1010)).toBe(false);
    expect(e.lost('s2', 3, 1030)).toBe(false);
    // Answer 2 leaves message 3 out.
    e.answerEnded('s2', true, 0);
    expect(e.lost('s2', 3, 1020)).toBe(false);
    expect(e.lost('s2', 3, 1025)).toBe(true);
    expect(e.lost('s2', 4, 1025)).toBe(true);
    // Nothing later than 5 was answered; and another location's answers say nothing of s3.
    expect(e.lost('s2', 6, 5000)).toBe(false);
    expect(e.lost('s3', 3, 5000)).toBe(false);
  });

  it('judges a journaled receiver by its receipts only: its acknowledgements of stored messages may overtake an earlier receipt', () => {
    const e = new LossEvidence(0);
    e.heard('s2', 1, 0, 'received');
    e.answerEnded('s2', true, 0);
    // An acknowledgement of stored message 9 (its receipt was lost), then another one: no evidence about 5.
    e.heard('s2', 9, 0, 'stored');
    e.answerEnded('s2', false, 0);
    e.answerEnded('s2', false, 0);
    expect(e.lost('s2', 5, 100)).toBe(false);
    // A process that sends no receipts is judged by its acknowledgements.
    e.heard('driver', 9, 0, 'stored');
    e.answerEnded('driver', false, 0);
    e.answerEnded('driver', false, 0);
    expect(e.lost('driver', 5, 100)).toBe(true);
  });
});

describe('DurableOutbox resends', () => {
  const target = (actor: string) => ({ actor });
  const bytes = new Uint8Array([1]);

  function outbox(): { box: DurableOutbox; sent: string[] } {
    const sent: string[] = [];
    const box = new DurableOutbox((t) => sent.push('actor' in t ? t.actor : t.topic));
    return { box, sent };
  }

  it('resends a message with no sign of loss only after eight timeouts, and one shown lost after one', () => {
    const { box, sent } = outbox();
    const now = wallNow_ms();
    box.keep('a>s2', 1, target('s2/meta'), 'a/x', bytes, now - 150); // waited 150 ms: 1.5 timeouts of 100
    box.keep('a>s2', 2, target('s2/meta'), 'a/x', bytes, now - 150);
    box.keep('a>s3', 1, target('s3/meta'), 'a/x', bytes, now - 850); // 8.5 timeouts
    expect(box.resend(100)).toBe(1);
    expect(sent).toEqual(['s3/meta']);
    // s2 answers message 2 (sent after 1), then answers again without 1: 1 is lost.
    box.received('a>s2', 2);
    box.answerEnded('s2', true);
    box.answerEnded('s2', true);
    expect(box.resend(100)).toBe(1);
    expect(sent).toEqual(['s3/meta', 's2/meta']);
  });

  it('takes the parts of one split answer as one answer: a message the next answer leaves out is lost, not one the parts left out', () => {
    const { box, sent } = outbox();
    const now = wallNow_ms();
    for (const n of [1, 2, 3]) box.keep('a>s2', n, target('s2/meta'), 'a/x', bytes, now - 150);
    // One window's receipts in two parts: 2, then 3; message 1 is still on its way.
    box.receipts('a>s2', 's2', [2], true);
    box.receipts('a>s2', 's2', [3], false);
    expect(box.resend(100)).toBe(0);
    // The next answer leaves 1 out: now it is lost.
    box.receipts('a>s2', 's2', [], false);
    expect(box.resend(100)).toBe(1);
    expect(sent).toEqual(['s2/meta']);
  });

  it('keeps a message its receiver has, unstored: resent when the receiver restarts, not on a timer while it answers', () => {
    const { box, sent } = outbox();
    const now = wallNow_ms();
    box.keep('a>s2', 1, target('s2/meta'), 'a/x', bytes, now - 5000); // fifty timeouts ago
    expect(box.heardFrom('s2', 'boot-1')).toBe(0);
    box.received('a>s2', 1);
    box.answerEnded('s2', true);
    expect(box.resend(100)).toBe(0);
    // Its rejoin announced: at once.
    expect(box.resendTo('s2')).toBe(1);
    box.received('a>s2', 1);
    // Or the first answer of a new start of s2, announced or not; a late answer of the old start changes nothing.
    expect(box.heardFrom('s2', 'boot-1')).toBe(0);
    expect(box.heardFrom('s2', 'boot-2')).toBe(1);
    expect(box.heardFrom('s2', 'boot-1')).toBe(0);
    expect(sent).toEqual(['s2/meta', 's2/meta']);
    // Stored at last: never resent again.
    expect(box.acknowledged('a>s2', 1)).toBe(1);
    expect(box.resend(0)).toBe(0);
  });

  it("acknowledges a link's messages cumulatively: every one up to the number, not those after it or on another link", () => {
    const { box, sent } = outbox();
    const now = wallNow_ms();
    for (const n of [1, 2, 3, 4]) box.keep('a>s2', n, target('s2/meta'), 'a/x', bytes, now - 900);
    box.keep('a>s3', 1, target('s3/meta'), 'a/x', bytes, now - 900);
    expect(box.acknowledged('a>s2', 3)).toBe(3);
    // An older answer, or the same again (a resent copy's), acknowledges nothing more.
    expect(box.acknowledged('a>s2', 2)).toBe(0);
    expect(box.acknowledged('a>s2', 3)).toBe(0);
    expect(box.acknowledged('a>s4', 9)).toBe(0);
    expect(box.resend(0)).toBe(2);
    expect(sent).toEqual(['s2/meta', 's3/meta']);
  });

  it('resends to a receiver silent for eight timeouts, not to one that answers', () => {
    const { box, sent } = outbox();
    const now = wallNow_ms();
    box.keep('a>s2', 1, target('s2/meta'), 'a/x', bytes, now - 900);
    box.keep('a>s3', 1, target('s3/meta'), 'a/x', bytes, now - 900);
    box.answerEnded('s3', true); // s3 answered something else just now; s2 never has
    expect(box.resend(100)).toBe(1);
    expect(sent).toEqual(['s2/meta']);
  });

  it('probes a silent receiver with its oldest and newest messages, once per eight timeouts, and resends the rest once an answer shows them missing', () => {
    const { box, sent } = outbox();
    const now = wallNow_ms();
    for (const n of [1, 2, 3, 4]) box.keep('a>s2', n, target('s2/meta'), 'a/x', bytes, now - 900);
    expect(box.resend(100)).toBe(2);
    // Still silent: no second probe before eight more timeouts, and not the others.
    expect(box.resend(100)).toBe(0);
    expect(box.takeResentUnanswered()).toBe(2);
    // s2 answers the newest (4, sent after 2 and 3), then again without 2 and 3: they were lost.
    box.received('a>s2', 4);
    box.answerEnded('s2', true);
    box.answerEnded('s2', true);
    expect(box.resend(100)).toBe(2);
    expect(sent).toEqual(['s2/meta', 's2/meta', 's2/meta', 's2/meta']);
    // Everything, when asked for (a restarted process's outbox).
    expect(box.resend(0)).toBe(4);
  });

  it('takes the answers to the probes as arrived: a restarted journaled receiver then shows what else it lacks', () => {
    const { box, sent } = outbox();
    const now = wallNow_ms();
    // s2 journals: it has sent receipts before.
    box.keep('a>s2', 1, target('s2/meta'), 'a/x', bytes, now - 2000);
    box.received('a>s2', 1);
    box.answerEnded('s2', true);
    box.acknowledged('a>s2', 1);
    // Sent while s2 was down; s2 has been silent since, for more than 8 timeouts of 0.01 ms.
    for (const n of [2, 3, 4]) box.keep('a>s2', n, target('s2/meta'), 'a/x', bytes, now - 900);
    const answered_ms = wallNow_ms();
    while (wallNow_ms() < answered_ms + 1);
    // The oldest and the newest.
    expect(box.resend(0.01)).toBe(2);
    expect(box.takeResentUnanswered()).toBe(2);
    // Back, s2 delivers 2, holds 4 for 3, says both arrived, and answers again.
    box.receipts('a>s2', 's2', [2, 4], false);
    box.answerEnded('s2', true);
    // Message 3 was sent before 4 and is in neither answer: lost, resent without waiting for another probe.
    expect(box.resend(0.01)).toBe(1);
    expect(box.takeResentUnanswered()).toBe(0);
    expect(sent).toEqual(['s2/meta', 's2/meta', 's2/meta']);
  });

  it('takes an answer to a resent message as one to its first copy: what was sent after that, still on its way, is not lost', () => {
    const { box, sent } = outbox();
    const now = wallNow_ms();
    box.keep('a>s2', 1, target('s2/meta'), 'a/x', bytes, now - 900);
    box.keep('a>s2', 2, target('s2/meta'), 'a/x', bytes, now - 900);
    box.keep('a>s2', 3, target('s2/meta'), 'a/x', bytes, now - 900);
    // s2 said it has 1, then a new start of s2 answered: 1 goes again, after 2 and 3.
    box.received('a>s2', 1);
    box.answerEnded('s2', true);
    expect(box.heardFrom('s2', 'boot-1')).toBe(0);
    expect(box.heardFrom('s2', 'boot-2')).toBe(1);
    // The answer to 1 may be to its first copy, sent before 2 and 3, which a busy s2 has not yet read.
    box.receipts('a>s2', 's2', [1], false);
    box.answerEnded('s2', true);
    expect(box.resend(100)).toBe(0);
    expect(sent).toEqual(['s2/meta']);
  });

  it('resends on the timeout what was in flight when the connection to the bus came back, and what is sent just after', () => {
    const { box, sent } = outbox();
    const now = wallNow_ms();
    box.keep('a>s2', 1, target('s2/meta'), 'a/x', bytes, now - 150); // 1.5 timeouts: no sign of loss yet
    expect(box.resend(100)).toBe(0);
    // The server restarted: message 1 may be lost with it, and the receivers subscribe again within the grace.
    box.connectionRestored(100);
    expect(box.resend(100)).toBe(1);
    box.keep('a>s3', 1, target('s3/meta'), 'a/x', bytes, now - 150);
    expect(box.resend(100)).toBe(1);
    expect(sent).toEqual(['s2/meta', 's3/meta']);
  });
});
