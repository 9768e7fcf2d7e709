#!/usr/bin/env python3
"""K copies of every job to the K least-loaded sites it fits in (paper 001's K-distributed), as an
external policy written from docs/external.md alone.

gridemu keeps each job's semaphore: the first copy to claim it starts, the others are cancelled.
K comes from the command line (default 2). Standard library only.
"""
import json
import sys

VERSION = 1
K = int(sys.argv[1]) if len(sys.argv) > 1 else 2
sites = []


def answer(request):
    global sites
    if request["type"] == "hello":
        sites = [(s["id"], s["cpus"]) for s in request["sites"]]
        return []
    if request["type"] != "submit":
        return []
    job, here = request["job"], request["location"]
    loads = {h["site"]: h["load"] for h in request["loads"]}
    fits = [site for site, cpus in sites if cpus >= job["procs"]]
    if not fits:
        return [{"do": "reject", "job": job["id"], "reason": "wider than every site"}]
    start = fits.index(here) if here in fits else 0
    rotated = fits[start:] + fits[:start]
    ranked = sorted(enumerate(rotated), key=lambda p: (loads.get(p[1], 0), p[0]))
    return [{"do": "copies", "job": job["id"], "to": [site for _, site in ranked[:K]]}]


for line in sys.stdin:
    sys.stdout.write(json.dumps({"v": VERSION, "actions": answer(json.loads(line))}) + "\n")
    sys.stdout.flush()
