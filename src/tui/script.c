/*
 * script.c - script mode: the browser driven by a file of commands.
 *
 * With GGUFED_SCRIPT=FILE in the environment, the terminal is not used at
 * all: curses renders into a virtual screen (its output goes to /dev/null,
 * see term.c) and keys come from FILE, one command per line:
 *
 *	size 80x24		the size of the virtual screen
 *	keys jj<Enter>		keys; <Name> for Up Down Left Right PgUp PgDn
 *				Home End Enter Esc Tab S-Tab Space F1 C-x
 *	type some text		each character as a key, spaces included
 *	click Y X / dclick Y X / wheel up|down Y X
 *	wait			until background work of the view is done
 *	dump FILE		the screen as text (what capture-pane shows),
 *				once the work the first screen put off is done
 *	dumpnow FILE		the same with that work not done first: what
 *				the first screen shows for its first moment
 *	dumpattr FILE		the screen's theme slots, one letter a cell
 *	probe FILE		what is set up (put-off work, the line editor,
 *				the copy of a large header)
 *	bench N KEYS		press KEYS N times; report the time per key
 *	# comment
 *
 * This is how the screen tests and `make bench` drive the real program
 * without a terminal, in the manner of tig's TIG_SCRIPT.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "app.h"

static int
script_key_name(const char *name, size_t n)
{
	static const struct {
		const char	*name;
		int		 key;
	} names[] = {
		{ "Up", TK_FN | KEY_UP }, { "Down", TK_FN | KEY_DOWN },
		{ "Left", TK_FN | KEY_LEFT }, { "Right", TK_FN | KEY_RIGHT },
		{ "PgUp", TK_FN | KEY_PPAGE }, { "PgDn", TK_FN | KEY_NPAGE },
		{ "Home", TK_FN | KEY_HOME }, { "End", TK_FN | KEY_END },
		{ "Enter", '\n' }, { "Esc", 0x1b }, { "Tab", '\t' },
		{ "S-Tab", TK_FN | KEY_BTAB }, { "Space", ' ' },
		{ "F1", TK_FN | KEY_F(1) }, { "BS", 0x7f }, { "Lt", '<' },
	};
	size_t	i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strlen(names[i].name) == n &&
		    strncmp(names[i].name, name, n) == 0)
			return names[i].key;
	}
	if (n == 3 && name[0] == 'C' && name[1] == '-')
		return name[2] & 0x1f;
	return -1;
}

/* Parses the next key of s at *i: a character or <Name>; -1 at the end. */
static int
script_next_key(const char *s, size_t *i)
{
	const char	*close;
	wchar_t		 wc;
	mbstate_t	 st;
	size_t		 n;
	int		 k;

	if (s[*i] == '\0')
		return -1;
	if (s[*i] == '<' && (close = strchr(s + *i, '>')) != NULL &&
	    close > s + *i + 1) {
		k = script_key_name(s + *i + 1, (size_t)(close - s - *i - 1));
		if (k != -1) {
			*i = (size_t)(close - s) + 1;
			return k;
		}
	}
	memset(&st, 0, sizeof st);
	n = mbrtowc(&wc, s + *i, strlen(s + *i), &st);
	if (n == 0 || n > 4) {
		(*i)++;
		return (unsigned char)s[*i - 1];
	}
	*i += n;
	return (int)wc;
}

static void
dump_screen(const char *path, int attrs)
{
	FILE		*fp;
	cchar_t		 cc;
	wchar_t		 wch[CCHARW_MAX + 1];
	attr_t		 at;
	short		 pair;
	char		 line[4096], mb[MB_LEN_MAX];
	size_t		 len, keep, n;
	mbstate_t	 st;
	int		 y, x, k;

	if ((fp = fopen(path, "w")) == NULL) {
		endwin();
		fprintf(stderr, "ggufed: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	for (y = 0; y < LINES; y++) {
		len = keep = 0;
		for (x = 0; x < COLS; x++) {
			if (mvin_wch(y, x, &cc) == ERR)
				break;
			if (getcchar(&cc, wch, &at, &pair, NULL) == ERR) {
				wch[0] = L' ';
				wch[1] = 0;
			}
			if (attrs) {
				line[len++] = pair == 0 ? '.' : (char)(pair < 27 ?
				    'A' + pair - 1 : 'a' + pair - 27);
				if (pair != 0)
					keep = len;
				if (wch[0] != 0 && wcwidth(wch[0]) == 2) {
					line[len] = line[len - 1];
					len++;
					x++;
				}
				continue;
			}
			memset(&st, 0, sizeof st);
			for (k = 0; k < CCHARW_MAX && wch[k] != 0; k++) {
				n = wcrtomb(mb, wch[k], &st);
				if (n == (size_t)-1) {
					mb[0] = '?';
					n = 1;
				}
				if (len + n < sizeof line) {
					memcpy(line + len, mb, n);
					len += n;
				}
			}
			if (k == 0)
				line[len++] = ' ';
			if (wch[0] != L' ' || k > 1)
				keep = len;
			if (wch[0] != 0 && wcwidth(wch[0]) == 2)
				x++;
		}
		fwrite(line, 1, keep, fp);
		fputc('\n', fp);
	}
	fclose(fp);
}

/*
 * What the browser has set up so far, without doing anything: whether
 * work put off for the first screen is still waiting and how many
 * pieces were done, and whether the line editor was started.
 */
static void
probe(struct app *a, const char *path)
{
	FILE	*fp;

	if ((fp = fopen(path, "w")) == NULL) {
		endwin();
		fprintf(stderr, "ggufed: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fprintf(fp, "put-off %s\nput-off-done %u\nline-editor %s\n"
	    "header-copy %s\n",
	    a->later_fn != NULL ? "waiting" : "none", a->later_done,
	    prompt_started(a->pr) ? "started" : "not started",
	    a->keep ? "waiting" : "done");
	fclose(fp);
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
script_fail(struct app *a, const char *what)
{
	if (!isendwin())
		endwin();
	fprintf(stderr, "ggufed: %s:%u: %s\n", a->script_path, a->script_line,
	    what);
	a->script_err = 1;
	a->quit = 1;
}

int
script_keys_waiting(struct app *a)
{
	return a->pending[a->ppos] != '\0';
}

/*
 * Commands that only look (dump) or change the screen (size) are done
 * here; the first that produces input returns it.
 */
int
script_input(struct app *a, struct tui_input *in)
{
	char		*pending = a->pending;
	char		 line[1024], *arg, *nl;
	int		 k, y, x, busy;

	for (;;) {
		if (pending[a->ppos] != '\0') {
			memset(in, 0, sizeof *in);
			if (a->typing) {
				wchar_t		wc;
				mbstate_t	st;
				size_t		n;

				memset(&st, 0, sizeof st);
				n = mbrtowc(&wc, pending + a->ppos,
				    strlen(pending + a->ppos), &st);
				if (n == 0 || n > 4) {
					in->key = (unsigned char)pending[a->ppos++];
				} else {
					in->key = (int)wc;
					a->ppos += n;
				}
				return 0;
			}
			k = script_next_key(pending, &a->ppos);
			if (k == -1)
				continue;
			in->key = k;
			return 0;
		}
		pending[0] = '\0';
		a->ppos = 0;
		if (fgets(line, sizeof line, a->script) == NULL)
			return -1;
		a->script_line++;
		if ((nl = strchr(line, '\n')) != NULL)
			*nl = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		arg = strchr(line, ' ');
		if (arg != NULL)
			*arg++ = '\0';
		else
			arg = line + strlen(line);
		if (strcmp(line, "keys") == 0 || strcmp(line, "type") == 0) {
			a->typing = line[0] == 't';
			snprintf(pending, sizeof a->pending, "%s", arg);
			a->ppos = 0;
		} else if (strcmp(line, "size") == 0) {
			if (sscanf(arg, "%dx%d", &x, &y) != 2 || x < 1 || y < 1) {
				script_fail(a, "size wants COLSxROWS");
				return -1;
			}
			resizeterm(y, x);
			frame_draw(a);
		} else if (strcmp(line, "dump") == 0 ||
		    strcmp(line, "dumpattr") == 0 ||
		    strcmp(line, "dumpnow") == 0) {
			if (strcmp(line, "dumpnow") != 0)
				app_run_later(a);
			frame_draw(a);
			dump_screen(arg, strcmp(line, "dumpattr") == 0);
		} else if (strcmp(line, "wait") == 0) {
			app_run_later(a);
			__atomic_store_n(&a->jobs_held, 0, __ATOMIC_RELEASE);
			do {
				app_tick(a, &busy);
				if (busy) {
					struct timespec ts = { 0, 2000000 };

					nanosleep(&ts, NULL);
				}
			} while (busy);
			__atomic_store_n(&a->jobs_held, 1, __ATOMIC_RELEASE);
			frame_draw(a);
		} else if (strcmp(line, "probe") == 0) {
			probe(a, arg);
		} else if (strcmp(line, "click") == 0 ||
		    strcmp(line, "dclick") == 0 || strcmp(line, "wheel") == 0) {
			char	dir[8] = "";

			memset(in, 0, sizeof *in);
			in->key = TK_MOUSE;
			if (line[0] == 'w') {
				if (sscanf(arg, "%7s %d %d", dir, &in->y,
				    &in->x) != 3) {
					script_fail(a, "wheel up|down Y X");
					return -1;
				}
				in->bstate = strcmp(dir, "up") == 0 ?
				    BUTTON4_PRESSED : BUTTON5_PRESSED;
			} else {
				if (sscanf(arg, "%d %d", &in->y, &in->x) != 2) {
					script_fail(a, "click Y X");
					return -1;
				}
				in->bstate = line[0] == 'd' ?
				    BUTTON1_DOUBLE_CLICKED : BUTTON1_CLICKED;
			}
			return 0;
		} else if (strcmp(line, "bench") == 0) {
			char		 keys[900];
			double		*t, t0, sum = 0;
			int		 reps, nk = 0, cap = 0, i;
			size_t		 p;
			struct tui_input bi;

			if (sscanf(arg, "%d %899s", &reps, keys) != 2 ||
			    reps < 1) {
				script_fail(a, "bench N KEYS");
				return -1;
			}
			t = NULL;
			if (app_run_later(a))
				frame_draw(a);
			for (i = 0; i < reps; i++) {
				for (p = 0; (k = script_next_key(keys, &p)) != -1;) {
					memset(&bi, 0, sizeof bi);
					bi.key = k;
					t0 = app_now_ms();
					app_input(a, &bi);
					frame_draw(a);
					if (nk == cap) {
						cap = cap ? cap * 2 : 256;
						t = xreallocarray(t, (size_t)cap,
						    sizeof *t);
					}
					t[nk++] = app_now_ms() - t0;
				}
			}
			if (nk == 0) {		/* no key in KEYS */
				script_fail(a, "bench N KEYS");
				return -1;
			}
			qsort(t, (size_t)nk, sizeof *t, cmp_double);
			for (i = 0; i < nk; i++)
				sum += t[i];
			fprintf(stderr, "bench %s x%d: %d keys, mean %.3f ms, "
			    "median %.3f ms, p99 %.3f ms, max %.3f ms\n", keys,
			    reps, nk, sum / nk, t[nk / 2],
			    t[(int)floor((nk - 1) * 0.99)], t[nk - 1]);
			free(t);
		} else {
			script_fail(a, "unknown script command");
			return -1;
		}
	}
}
