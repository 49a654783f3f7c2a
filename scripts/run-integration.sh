#!/usr/bin/env bash
# Run integration tests: each test/integration/NAME.sh exits 0 (pass),
# 77 (skip, with the reason on its last line) or anything else (fail).
# Usage: run-integration.sh [PATTERN...]   (tests whose name holds any PATTERN)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
patterns=("$@")
pass=0 failn=0 skipn=0 failed=()
for t in "$top"/test/integration/*.sh; do
	name=$(basename "$t" .sh)
	if [ ${#patterns[@]} -gt 0 ]; then
		hit=0
		for p in "${patterns[@]}"; do [[ "$name" == *$p* ]] && hit=1; done
		[ $hit = 1 ] || continue
	fi
	log=$(mktemp)
	start=$(date +%s)
	( cd "$top" && bash "$t" ) >"$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	case $rc in
	0)  printf 'PASS  %-28s %3ss\n' "$name" "$secs"; pass=$((pass + 1)) ;;
	77) printf 'SKIP  %-28s %s\n' "$name" "$(tail -n 1 "$log")"; skipn=$((skipn + 1)) ;;
	*)  printf 'FAIL  %-28s %3ss\n' "$name" "$secs"; sed 's/^/    /' "$log" | tail -n 60
	    failn=$((failn + 1)); failed+=("$name") ;;
	esac
	rm -f "$log"
done
printf '\nintegration: %d passed, %d failed, %d skipped\n' "$pass" "$failn" "$skipn"
[ "$failn" -eq 0 ] || { printf 'failed: %s\n' "${failed[*]}"; exit 1; }
