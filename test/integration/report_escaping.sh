#!/usr/bin/env bash
# Names from a file reach the terminal escaped: a recording whose command
# name, object path and event name carry control characters (ESC sequences,
# newline, CR, BEL, DEL, a C1 CSI), invalid UTF-8 and < > & " ' gives tables
# whose rows stay one line each, with no control byte but the newlines that
# end lines, the controls written as \n \r \t \xNN, and valid UTF-8 and
# < > & " ' as they are; warnings and --header likewise.
source "$(dirname "$0")/../lib.sh"
F=$TOP/test/fixtures

python3 "$TOP/test/make_tiny.py" "$F/weights.data" "$WORK/tiny.data" 1016 > /dev/null
# Same-length replacements, so no size or offset in the file changes. The
# escaped forms are what the table must show (the rule of cmd/text.h).
python3 - "$WORK/tiny.data" "$WORK/want" <<'PY'
import sys
path, want = sys.argv[1], sys.argv[2]
b = bytearray(open(path, "rb").read())

def swap(old, new):
    assert len(old) == len(new)
    i = b.find(old)
    assert i >= 0 and b.find(old, i + 1) < 0 or old == b"weights\0", old
    b[i:i + len(old)] = new

obj = b"a\x1b[31m\n\r'\"<>&\x7f\xc2\x9b\xc3\xa9\xff"
obj += b"z" * (len("/tmp/vmprof-fixtures/weights") - len("/tmp/") - len(obj))
swap(b"/tmp/vmprof-fixtures/weights", b"/tmp/" + obj)
swap(b"weights\0", b"w\te\x07<&\"\0")     # the COMM record comes first
swap(b"cpu-clock", b"c\x1b[1m<&\n'")

def esc(s):
    out, i = "", 0
    while i < len(s):
        c = s[i]
        if c in b"\n\r\t":
            out += {10: "\\n", 13: "\\r", 9: "\\t"}[c]
        elif c < 0x20 or c == 0x7f or c == 0xff:
            out += "\\x%02x" % c
        elif c == 0xc2 and s[i + 1] < 0xa0:
            out += "\\x%02x\\x%02x" % (c, s[i + 1])
            i += 1
        elif c == 0xc3:
            out += s[i:i + 2].decode()
            i += 1
        else:
            out += chr(c)
        i += 1
    return out

open(path, "wb").write(b)
with open(want, "w") as f:
    f.write(esc(obj) + "\n" + esc(b"w\te\x07<&\"") + "\n" + esc(b"c\x1b[1m<&\n'") + "\n")
PY
{ read -r want_obj; read -r want_comm; read -r want_event; } < "$WORK/want"

# only printable text and the newlines that end lines
clean() { ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$1" && ! LC_ALL=C grep -q $'\xc2[\x80-\x9f]' "$1"; }

expect_status 0 "$VMPROF_SAN" report --symfs "$F/symfs" --sort comm,dso,sym "$WORK/tiny.data"
clean "$WORK/out" || fail "control characters in the table: $(od -c "$WORK/out" | head -20)"
clean "$WORK/err" || fail "control characters in the warnings: $(od -c "$WORK/err" | head -20)"
grep -qF -- "# Event '$want_event'" "$WORK/out" || fail "event name not shown escaped as '$want_event'"
rows=$(grep -v '^#' "$WORK/out" | grep -c . || true)
expect_eq "table rows (the file's 3 samples in one function)" "$rows" 1
row=$(grep -v '^#' "$WORK/out" | grep .)
# the period: a count, or a time event's time ("3.000 ms")
[[ $row =~ ^\ +100\.00%\ +3\ +[0-9.]+(\ [mun]?s)?\ +(.*)\ +(.*)\ +\[\.\]\ \[unknown\]$ ]] ||
	fail "row not in its columns: $row"
grep -qF -- "$want_comm" <<< "$row" || fail "command name not shown as '$want_comm': $row"
grep -qF -- "$want_obj" <<< "$row" || fail "object name not shown as '$want_obj': $row"
# every stderr line is one whole message
grep -v '^vmprof report: ' "$WORK/err" && fail "a warning spans lines"
grep -qF -- "$want_obj" "$WORK/err" || fail "the object's warning does not show its escaped name"

expect_status 0 "$VMPROF_SAN" report --header "$WORK/tiny.data"
clean "$WORK/out" || fail "control characters in --header"
grep -qF -- "name = $want_event," "$WORK/out" || fail "--header event name not escaped"
echo ok
