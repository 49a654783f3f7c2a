"""One run as a table, for tests that make their runs: the columns of
`vmprof report --format csv`, the share left 0 (vmprof computes shares from
the rows). table(path, rows): rows of (event, symbol, dso, domain, samples,
period)."""
import csv


def table(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow("event,symbol,dso,domain,samples,period,share".split(","))
        for r in rows:
            w.writerow(list(r) + [0])
