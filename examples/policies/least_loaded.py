#!/usr/bin/env python3
"""Paper 001's greedy distributed metascheduler as an external policy (docs/external.md).

A job submitted here goes to the least-loaded site it fits in, but only if that site is less
loaded than this one; otherwise it stays. A site not heard from yet counts as load 0. Ties go to
this site first, then to the sites after it in the grid's order, wrapping round. Standard library
only; one JSON line in, one JSON line out.
"""
import json
import sys

VERSION = 1
sites = []  # [(id, cpus)] in the grid's order


def least_loaded(candidates, loads, origin):
    start = candidates.index(origin) if origin in candidates else 0
    rotated = candidates[start:] + candidates[:start]
    return min(enumerate(rotated), key=lambda p: (loads.get(p[1], 0), p[0]))[1]


def decide(request):
    global sites
    kind = request["type"]
    if kind == "hello":
        sites = [(s["id"], s["cpus"]) for s in request["sites"]]
        return []
    if kind != "submit":
        return []
    job, here = request["job"], request["location"]
    loads = {h["site"]: h["load"] for h in request["loads"]}
    fits = [site for site, cpus in sites if cpus >= job["procs"]]
    if not fits:
        # Wider than every site: its own site refuses it.
        return [{"do": "send", "job": job["id"], "to": here}]
    if here in fits:
        best = least_loaded(fits, loads, here)
        target = best if loads.get(best, 0) < loads.get(here, 0) else here
    else:
        target = least_loaded(fits, loads, here)
    return [{"do": "send", "job": job["id"], "to": target}]


for line in sys.stdin:
    answer = {"v": VERSION, "actions": decide(json.loads(line))}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
