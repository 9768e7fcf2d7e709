#!/usr/bin/env node
import { memberMain } from '@gridemu/live';

// Paper 000's queues (§5, Figure 3: "each queue resides on a separate machine"): one process per
// queue of the grid execution hierarchy, at the location named by the queue's id.
process.exitCode = await memberMain(process.argv.slice(2), {
  command: 'gridemu-hierarchy',
  member: 'hierarchy',
  hosts: "one queue of the grid execution hierarchy (--member Q2), or the FCFS schemes' single queue (--member fcfs)",
});
