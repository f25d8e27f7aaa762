#!/bin/sh
# layers.sh - the folders of src/ are floors: a file may include the
# headers of its own folder and of the floors below it, never of a floor
# above it nor of another folder on its own floor. The table below is the
# one place the order is kept (README.md's Hacking section shows it).
#
# Reads every #include "..." of every .c and .h under src/, maps the
# header to the folder that holds it (a header no folder holds, config.h,
# is the build's), and fails naming the file and the include that goes
# the wrong way, or two folders that include each other. Inside src/tui,
# a view (view_*.c) may include tui.h, curses.h, task.h and its own
# view_*.h, and no other header of the browser (tui.h says why).
#
# usage: layers.sh [SRCDIR]	(SRCDIR defaults to $TESTS_SRCDIR/../src)

# floor folder: bottom first; folders on one floor may not include each
# other.
FLOORS='
0 base
1 source
2 format
3 numbers
4 document
5 model
6 storage
6 proof
7 jinja
8 cmd
9 tui
10 cli
'

src=${1:-${TESTS_SRCDIR:-$(dirname "$0")/..}/../src}
if [ ! -d "$src" ]; then
	echo "1..0 # SKIP no source tree at $src"
	exit 0
fi

files=$(cd "$src" && find . -name '*.[ch]' | sed 's|^\./||' | sort)
if [ -z "$files" ]; then
	echo "Bail out! no sources under $src"
	exit 1
fi

out=$(mktemp) || exit 1

# One line per include: FILE HEADER.
(cd "$src" && for f in $files; do
	sed -n 's/^[ 	]*#[ 	]*include[ 	]*"\([^"]*\)".*/\1/p' "$f" |
	    while read -r h; do echo "$f $h"; done
done) | awk -v floors="$FLOORS" -v files="$files" '
BEGIN {
	n = split(floors, fl, "\n")
	for (i = 1; i <= n; i++) {
		if (split(fl[i], w, " ") == 2)
			rank[w[2]] = w[1] + 0
	}
	m = split(files, fs, "\n")
	for (i = 1; i <= m; i++) {
		d = fs[i]; sub(/\/.*/, "", d)
		b = fs[i]; sub(/.*\//, "", b)
		if (fs[i] !~ /\.h$/)
			continue
		if (b in home && home[b] != d)
			dup[b] = home[b] " " d
		home[b] = d
		path[fs[i]] = d
		if (!(d in rank))
			unknown[d] = 1
	}
	for (i = 1; i <= m; i++) {
		d = fs[i]; sub(/\/.*/, "", d)
		if (fs[i] ~ /\// && !(d in rank))
			unknown[d] = 1
	}
	bad = 0
}
{
	file = $1; h = $2
	from = file; sub(/\/.*/, "", from)
	if (h in path)
		to = path[h]
	else {
		b = h; sub(/.*\//, "", b)
		if (!(b in home))
			next		# config.h, the build is not a floor
		to = home[b]
	}
	if (to == from) {
		# In the browser a view asks the application through tui.h
		# alone: it includes no other view, nor the headers of the loop.
		if (from == "tui" && file ~ /^tui\/view_[^\/]*\.[ch]$/) {
			b = h; sub(/.*\//, "", b)
			own = file; sub(/.*\//, "", own); sub(/\.c$/, ".h", own)
			if (b != "tui.h" && b != "curses.h" && b != "task.h" &&
			    b != own) {
				printf("%s includes \"%s\": a view includes " \
				    "tui.h, curses.h, task.h and its own " \
				    "header only\n", file, h)
				bad++
			}
		}
		next
	}
	uses[from, to] = uses[from, to] " " file "->" h
	if (rank[to] > rank[from]) {
		printf("%s includes \"%s\": %s (floor %d) may not use %s " \
		    "(floor %d, above it)\n", file, h, from, rank[from], to,
		    rank[to])
		bad++
	} else if (rank[to] == rank[from]) {
		printf("%s includes \"%s\": %s and %s share floor %d and " \
		    "may not use each other\n", file, h, from, to, rank[from])
		bad++
	}
}
END {
	for (k in uses) {
		split(k, p, SUBSEP)
		if (p[1] < p[2] && ((p[2], p[1]) in uses)) {
			printf("%s and %s include each other:%s;%s\n", p[1],
			    p[2], uses[p[1], p[2]], uses[p[2], p[1]])
			bad++
		}
	}
	for (d in unknown) {
		printf("folder %s is on no floor: add it to the table in " \
		    "layers.sh and README.md\n", d)
		bad++
	}
	for (b in dup) {
		printf("header %s is in two folders (%s): an include cannot " \
		    "say which\n", b, dup[b])
		bad++
	}
	exit bad != 0
}' >"$out" 2>&1
rc=$?
echo "1..1"
if [ $rc -eq 0 ] && [ ! -s "$out" ]; then
	echo "ok 1 - every include of src/ goes down a floor or stays home"
else
	sed "s/^/# /" "$out"
	echo "not ok 1 - includes that go up a floor or across one"
fi
rm -f "$out"
