/*
 * screen_floor.c - the least a curses program pays for its first screen,
 * for bench_tui.sh: what ncursesw costs a program before any of ggufed's
 * own work, measured as a whole process beside one that prints the same
 * text.
 *
 *	screen_floor print	writes 24 lines of 79 characters to standard
 *				output, as a program that prints its answer
 *	screen_floor screen	sets the locale's character set, starts
 *				ncursesw on $TERM with /dev/null for the
 *				terminal (as the browser's script mode), sets
 *				the modes and colours the browser sets, draws
 *				the same 24 lines, updates the screen, and
 *				ends curses
 */
#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char	line[] = "tokenizer.ggml.tokens   [str x 150,000]  "
			    "\"<unk>\", \"<s>\", \"</s>\", \"<0x00>\", ...";

int
main(int argc, char **argv)
{
	const char	*term = getenv("TERM");
	SCREEN		*s;
	FILE		*out, *in;
	int		 i;

	if (argc != 2 || (strcmp(argv[1], "print") != 0 &&
	    strcmp(argv[1], "screen") != 0)) {
		fprintf(stderr, "usage: screen_floor print | screen\n");
		return 2;
	}
	if (strcmp(argv[1], "print") == 0) {
		for (i = 0; i < 24; i++)
			printf("%-79.79s\n", line);
		return fflush(stdout) != 0;
	}
	setlocale(LC_CTYPE, "");
	out = fopen("/dev/null", "w");
	in = fopen("/dev/null", "r");
	if (out == NULL || in == NULL) {
		perror("screen_floor: /dev/null");
		return 1;
	}
	if ((s = newterm(term != NULL && *term != '\0' ? term :
	    "xterm-256color", out, in)) == NULL) {
		fprintf(stderr, "screen_floor: cannot use terminal type\n");
		return 1;
	}
	set_term(s);
	raw();
	noecho();
	nonl();
	curs_set(0);
	if (has_colors()) {
		start_color();
		use_default_colors();
	}
	for (i = 0; i < 24; i++)
		mvaddnstr(i, 0, line, 79);
	refresh();
	endwin();
	delscreen(s);
	fclose(out);
	fclose(in);
	return 0;
}
