#!/usr/bin/env node
import { memberMain } from '@gridemu/live';

// Paper 003's general services (§4, Figure 4): the grid scheduler GSched, the information service and
// the checkpoint server, one process at the location `services`.
process.exitCode = await memberMain(process.argv.slice(2), {
  command: 'gridemu-dag',
  member: 'services',
  hosts:
    "paper 003's general services: the scheduler (dag-static or dag-adaptive), the information service and the checkpoint server",
});
