#!/usr/bin/env python3
"""make check-layers: the tree's layering, checked (design.md, Layout).

1. No lower layer includes an upper one: lib/ includes only lib/; converters/
   and render/ include lib/ and their own folder (render/ never converters/);
   cmd/ may include everything.
2. No include circle between headers.
3. No circle between source files: file A depends on file B when A's object
   uses a symbol B's object defines (nm). Two files that need each other are
   one concern cut in two places (or two concerns tangled): each cycle is
   printed with a symbol for every step.

Usage: scripts/check-layers.py OBJECT...   (run from the tree's root)
"""
import os
import re
import subprocess
import sys

ALLOWED = {
    "lib": {"lib"},
    "converters": {"lib", "converters"},
    "render": {"lib", "render"},
    "cmd": {"lib", "converters", "render", "cmd"},
}
LAYERS = tuple(ALLOWED)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def sources():
    for top in LAYERS:
        for d, _, files in os.walk(top):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.join(d, f)


def resolve(src, inc):
    """The tree path an #include "inc" in src names (the build uses -I.)."""
    if inc.split("/")[0] in LAYERS:
        return os.path.normpath(inc)
    return os.path.normpath(os.path.join(os.path.dirname(src), inc))


def includes():
    out = {}
    for src in sources():
        with open(src, encoding="utf-8", errors="replace") as f:
            out[src] = [(n, resolve(src, m.group(1)))
                        for n, line in enumerate(f, 1) if (m := INCLUDE.match(line))]
    return out


def sccs(graph):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def cycle_in(comp, graph):
    """One cycle through the component's first node, for the message."""
    start = comp[0]
    prev, todo = {start: None}, [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph[v]):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w in comp and w not in prev:
                prev[w] = v
                todo.append(w)
    return comp


def symbols(objs):
    """For each object: the global symbols it defines and those it uses."""
    defs, uses = {}, {}
    res = subprocess.run(["nm", "-o", "--defined-only", "-g"] + objs, capture_output=True,
                         text=True, check=True)
    for line in res.stdout.splitlines():
        obj, rest = line.rsplit(":", 1) if line.count(":") else (None, line)
        parts = rest.split()
        if obj and len(parts) >= 3:
            defs.setdefault(parts[2], obj)
    res = subprocess.run(["nm", "-o", "--undefined-only"] + objs, capture_output=True,
                         text=True, check=True)
    for line in res.stdout.splitlines():
        obj, rest = line.rsplit(":", 1)
        parts = rest.split()
        if parts:
            uses.setdefault(obj, set()).add(parts[-1])
    return defs, uses


def source_of(obj):
    """build/lib/perfdata/walk.o -> lib/perfdata/walk.c"""
    parts = obj.split(os.sep)
    for i, p in enumerate(parts):
        if p in LAYERS:
            return os.path.join(*parts[i:])[:-2] + ".c"
    return obj


def main(objs):
    problems = 0
    inc = includes()
    for src, lst in inc.items():
        layer = src.split("/")[0]
        for n, target in lst:
            tl = target.split("/")[0]
            if tl in LAYERS and tl not in ALLOWED[layer]:
                print(f"{src}:{n}: {layer}/ includes {target}: a lower layer never "
                      f"includes an upper one")
                problems += 1
    graph = {s: {t for _, t in lst if t in inc} for s, lst in inc.items() if s.endswith(".h")}
    for comp in sccs(graph):
        print("include circle: " + " -> ".join(cycle_in(comp, graph)))
        problems += 1

    if objs:
        defs, uses = symbols(objs)
        graph, why = {}, {}
        for obj in objs:
            a = source_of(obj)
            graph.setdefault(a, set())
            for sym in sorted(uses.get(obj, ())):
                if sym in defs and defs[sym] != obj:
                    b = source_of(defs[sym])
                    graph[a].add(b)
                    why.setdefault((a, b), sym)
        for comp in sccs(graph):
            cyc = cycle_in(comp, graph)
            steps = [f"{a} ({why[(a, b)]})" for a, b in zip(cyc, cyc[1:])]
            print("source circle: " + " -> ".join(steps) + f" -> {cyc[-1]}")
            problems += 1
    if problems:
        print(f"check-layers: {problems} problem(s)")
        return 1
    print(f"check-layers: {len(inc)} files and {len(objs)} objects: layers and no circles")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
