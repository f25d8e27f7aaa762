#!/bin/sh
# heatmap.sh - the cursor of the preview's heat map can be seen with 8
# colours and with none (NO_COLOR): the real program under tmux, its
# screen captured with the escape sequences (capture-pane -e), each cell's
# attributes worked out from them.
#
# With a heat map every colour stands for a value, so a cursor drawn in
# one of them looks like a value: the cell under the cursor must look
# different from that same cell without the cursor, and from every other
# cell of the grid, and carry a marker.
. "$TESTS_SRCDIR/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
DEMO=$TESTS_SRCDIR/../assets/Demo-Llama-3.9M-v1.0-Q4_K_M.gguf
[ -f "$DEMO" ] || skip_all "no demo model"
cp_w "$DEMO" "$scratch/m.gguf"

. "$TESTS_SRCDIR/tui/tmux.lib"
tmux_env
tmux_server heat
# The pane is captured with its escape sequences.
SETTLE_FLAGS=-e

# cells FILE: one line per run of non-blank characters of one look:
# "LINE<tab>LOOK<tab>TEXT", LOOK the colours and attributes in effect.
cells() {
	perl -CSD -ne '
	BEGIN { our ($fg, $bg, $b, $d, $u, $r) = ("-", "-", 0, 0, 0, 0); }
	our ($fg, $bg, $b, $d, $u, $r);
	chomp;
	my ($text, $look, $prev) = ("", "", "");
	my $flush = sub {
		print "$.\t$look\t$text\n" if $text ne "";
		$text = "";
	};
	for my $p (split /(\e\[[0-9;]*m)/) {
		if ($p =~ /^\e\[([0-9;]*)m$/) {
			my @a = split /;/, ($1 eq "" ? "0" : $1);
			while (@a) {
				my $c = shift @a;
				if ($c == 0) { ($fg, $bg, $b, $d, $u, $r) =
				    ("-", "-", 0, 0, 0, 0) }
				elsif ($c == 1) { $b = 1 } elsif ($c == 2) { $d = 1 }
				elsif ($c == 4) { $u = 1 } elsif ($c == 7) { $r = 1 }
				elsif ($c == 22) { $b = $d = 0 }
				elsif ($c == 24) { $u = 0 } elsif ($c == 27) { $r = 0 }
				elsif ($c >= 30 && $c <= 37) { $fg = $c - 30 }
				elsif ($c >= 90 && $c <= 97) { $fg = $c - 82 }
				elsif ($c >= 40 && $c <= 47) { $bg = $c - 40 }
				elsif ($c >= 100 && $c <= 107) { $bg = $c - 92 }
				elsif ($c == 39) { $fg = "-" } elsif ($c == 49) { $bg = "-" }
				elsif (($c == 38 || $c == 48) && @a >= 2 && $a[0] == 5) {
					shift @a; my $n = shift @a;
					if ($c == 38) { $fg = $n } else { $bg = $n }
				}
			}
			next;
		}
		for my $ch (split //, $p) {
			my $l = "fg=$fg,bg=$bg,b=$b,d=$d,u=$u,r=$r";
			if ($ch eq " " || $l ne $look) {
				$flush->();
				$look = $l;
			}
			$text .= $ch if $ch ne " ";
		}
	}
	$flush->();
	' "$1"
}

# look FILE LINE TEXT: the look of TEXT on screen line LINE.
look() {
	cells "$1" | awk -F '\t' -v l="$2" -v t="$3" \
	    '$1 == l && $3 == t { print $2; exit }'
}

# One tensor, its statistics done (the heat map then spans its range),
# the heat map on; then the cursor moved to row 5, column 1, a value the
# 8-colour map draws in the yellow that the list cursor also uses.
check_mode() {	# check_mode WHAT ENV...
	what=$1
	shift
	tm kill-session -t t 2>/dev/null
	tm new-session -d -s t -x 80 -y 24 "cd '$scratch' && exec env \
	    LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC $* '$GGUFED' m.gguf"
	settle "$scratch/a" "Summary" || { ok 1 "$what: the browser starts"; return; }
	tm send-keys -t t 4 j Enter
	settle "$scratch/a" "finite"
	tm send-keys -t t c
	settle "$scratch/a" "short, heat"
	ok $? "$what: the heat map is on"
	tm send-keys -t t j j j j j l
	settle "$scratch/b" "[1,5,0,0]"
	ok $? "$what: the cursor is on row 5, column 1"
	# Screen line 9 is row 5 of the grid (title, info, header, rows).
	under=$(look "$scratch/b" 9 0.4198)
	plain=$(look "$scratch/a" 9 0.4198)
	[ -n "$under" ] && [ -n "$plain" ] && [ "$under" != "$plain" ]
	ok $? "$what: the cell under the cursor looks different from itself \
without it ($under / $plain)"
	n=$(cells "$scratch/b" | awk -F '\t' -v k="$under" \
	    '$1 >= 4 && $1 <= 13 && $2 == k' | wc -l)
	[ "$n" -eq 2 ]
	ok $? "$what: and from every other cell of the grid ($n runs look \
like it: the marker and the value)"
	cells "$scratch/b" | awk -F '\t' '$1 == 9 { print $3 }' |
	    grep -qx "$(printf '\342\226\270')"
	ok $? "$what: the cell under the cursor carries a marker"
	tm kill-session -t t 2>/dev/null
}

check_mode "8 colours" TERM=xterm
check_mode "NO_COLOR" TERM=xterm-256color NO_COLOR=1
check_mode "256 colours" TERM=xterm-256color

done_testing
