#!/usr/bin/env bash
# Every command has a man page listing exactly the long options its --help
# lists, and every page renders without roff warnings.
source "$(dirname "$0")/../lib.sh"

cmds=$("$VMPROF" --help | awk '/^commands:/ { on = 1; next } on && !NF { exit } on { print $1 }' | grep -v '^help$')
[ -n "$cmds" ] || fail "no commands listed by vmprof --help"
for c in $cmds; do
	page=$TOP/man/vmprof-$c.1
	[ -f "$page" ] || fail "$c: no man page $page"
	help=$("$VMPROF" "$c" --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
	# Options are the tagged paragraphs (.TP) of the OPTIONS section.
	man=$(awk '/^\.SH/ { opts = ($0 ~ /OPTIONS/) } opts && prev == ".TP" { print } { prev = $0 }' "$page" |
		grep -oE -- '\\-\\-[a-z][a-z0-9\\-]*' | sed 's/\\//g' | sort -u)
	diff <(echo "$help") <(echo "$man") > "$WORK/d" ||
		{ cat "$WORK/d"; fail "$c: --help and $page list different options"; }
	"$VMPROF" help "$c" | cmp -s - <("$VMPROF" "$c" --help) || fail "$c: 'vmprof help $c' differs"
done
for page in "$TOP"/man/*.1; do
	warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 groff -man -Tutf8 -ww -z "$page" 2>&1 || true)
	[ -z "$warn" ] || fail "$page: $warn"
done
"$VMPROF" --version | grep -qE '^vmprof [0-9]+\.[0-9]+\.[0-9]+$' || fail "--version"
echo "ok: $(echo $cmds | wc -w) commands"
