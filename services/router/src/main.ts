#!/usr/bin/env node
import { memberMain } from '@gridemu/live';

// Paper 004's grid scheduler (§4): one process at the location `scheduler`, far from every resource,
// routing each task by Grid Shadow Routing, MCT or JSQ*.
process.exitCode = await memberMain(process.argv.slice(2), {
  command: 'gridemu-router',
  member: 'scheduler',
  hosts: "paper 004's grid scheduler (--member scheduler), which routes every task to a resource",
});
