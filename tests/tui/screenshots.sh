#!/bin/sh
# screenshots.sh - PNG pictures of the browser's views for the README.
#
#	tests/tui/screenshots.sh GGUFED [OUTDIR]
#
# The real program runs in a private tmux server on the demo model; each
# view's screen is captured with its colours (capture-pane -e), turned
# into HTML by the small SGR interpreter below, and photographed by a
# headless Chromium. Not part of `make check`: it needs tmux, perl and a
# chromium binary. OUTDIR defaults to assets/screenshots.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
gguf=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=${2:-$top/assets/screenshots}
model=Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || { echo "screenshots.sh: no chromium" >&2; exit 1; }
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/ggufed-shots.XXXXXX")
sock=ggufed-shots-$$
tm() {
	tmux -L "$sock" -f /dev/null "$@"
}
trap 'tm kill-server 2>/dev/null; rm -rf "$work"' EXIT
cols=100
rows=30

# Waits until the screen stops changing.
settle() {
	prev=
	i=0
	while [ $i -lt 50 ]; do
		cur=$(tm capture-pane -p -t s)
		[ "$cur" = "$prev" ] && return 0
		prev=$cur
		sleep 0.2
		i=$((i + 1))
	done
}

# ANSI (tmux's capture-pane -e) to HTML, xterm's 256-colour palette.
to_html() {
	perl -CS -e '
	use strict; use warnings;
	my @base = qw(000000 cd0000 00cd00 cdcd00 0000ee cd00cd 00cdcd e5e5e5
	    7f7f7f ff0000 00ff00 ffff00 5c5cff ff00ff 00ffff ffffff);
	sub pal { my $n = shift;
		return $base[$n] if $n < 16;
		if ($n < 232) { $n -= 16; my @l = (0, 95, 135, 175, 215, 255);
			return sprintf "%02x%02x%02x", $l[int($n / 36)],
			    $l[int($n / 6) % 6], $l[$n % 6]; }
		my $g = 8 + 10 * ($n - 232); return sprintf "%02x%02x%02x", $g, $g, $g; }
	my ($fg, $bg, $bold, $ul, $rev) = (undef, undef, 0, 0, 0);
	sub esc { my $s = shift; $s =~ s/&/&amp;/g; $s =~ s/</&lt;/g;
		$s =~ s/>/&gt;/g; return $s; }
	sub span { my $t = shift; return "" if $t eq "";
		my ($f, $b) = ($fg // "d0d0d0", $bg // "1c1c1c");
		($f, $b) = ($b, $f) if $rev;
		my $st = "color:#$f;background:#$b";
		$st .= ";font-weight:bold" if $bold;
		$st .= ";text-decoration:underline" if $ul;
		return "<span style=\"$st\">" . esc($t) . "</span>"; }
	print "<!doctype html><meta charset=utf-8><style>body{margin:0;",
	    "background:#1c1c1c}pre{margin:8px;font:15px/1.2 \"DejaVu Sans Mono\",",
	    "\"Noto Sans Mono CJK JP\",monospace}</style><pre>";
	while (my $line = <STDIN>) {
		chomp $line;
		my @parts = split /(\e\[[0-9;]*m)/, $line;
		for my $p (@parts) {
			if ($p =~ /^\e\[([0-9;]*)m$/) {
				my @a = split /;/, ($1 eq "" ? "0" : $1);
				while (@a) { my $c = shift @a;
					if ($c == 0) { ($fg, $bg, $bold, $ul, $rev) = (undef, undef, 0, 0, 0) }
					elsif ($c == 1) { $bold = 1 } elsif ($c == 4) { $ul = 1 }
					elsif ($c == 7) { $rev = 1 } elsif ($c == 22) { $bold = 0 }
					elsif ($c == 24) { $ul = 0 } elsif ($c == 27) { $rev = 0 }
					elsif ($c >= 30 && $c <= 37) { $fg = pal($c - 30) }
					elsif ($c >= 90 && $c <= 97) { $fg = pal($c - 82) }
					elsif ($c >= 40 && $c <= 47) { $bg = pal($c - 40) }
					elsif ($c >= 100 && $c <= 107) { $bg = pal($c - 92) }
					elsif ($c == 39) { $fg = undef } elsif ($c == 49) { $bg = undef }
					elsif ($c == 38 && @a >= 2 && $a[0] == 5) { shift @a; $fg = pal(shift @a) }
					elsif ($c == 48 && @a >= 2 && $a[0] == 5) { shift @a; $bg = pal(shift @a) }
				}
			} else { print span($p) }
		}
		print "\n";
	}
	print "</pre>\n";'
}

shot() {	# shot NAME KEYS...
	name=$1
	shift
	tm kill-session -t s 2>/dev/null || true
	tm new-session -d -s s -x $cols -y $rows "cd '$top/assets' &&
	    exec env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 \
	    '$gguf' $model"
	sleep 0.5
	for k in "$@"; do
		tm send-keys -t s "$k"
		sleep 0.2
	done
	settle
	tm capture-pane -e -p -t s | to_html >"$work/$name.html"
	"$chrome" --headless --no-sandbox --disable-gpu \
	    --disable-background-networking --disable-component-update \
	    --disable-sync --no-first-run --hide-scrollbars \
	    --user-data-dir="$work/profile" --window-size=930,560 \
	    --screenshot="$out/$name.png" "file://$work/$name.html" \
	    >/dev/null 2>&1
	echo "$out/$name.png"
}

shot summary
shot metadata 2
shot template 2 / c h a t _ t e m p l a t e Enter Enter
shot tokenizer 3 / ^ G Enter
shot tensors 4 s
shot preview 4 j j j Enter l l l c
shot blocks 4 j j j Enter b
shot help F1
