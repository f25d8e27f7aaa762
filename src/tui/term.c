/*
 * term.c - the terminal: curses set up on it and given back, keys read
 * from it.
 *
 * In script mode (script.c) curses is set up on /dev/null instead, with
 * a virtual screen of the script's size, and no key is read here.
 */
#include "config.h"

#include <sys/ioctl.h>

#include <poll.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "app.h"

/*
 * Takes the terminal's own size if curses has another: a terminal resized
 * in two steps can leave curses with a size from between them, and a
 * SIGWINCH that lands just before curses blocks in read() is only seen at
 * the next key. Returns 1 if the size changed.
 */
static int
follow_terminal_size(void)
{
	struct winsize	ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 ||
	    ws.ws_col == 0 || (ws.ws_row == LINES && ws.ws_col == COLS))
		return 0;
	resizeterm(ws.ws_row, ws.ws_col);
	return 1;
}

/* Idle, the loop still wakes this often to catch a lost resize. */
#define IDLE_WAKE_MS	1000
/* Reads that fail at once this many times in a row: the input is gone. */
#define QUICK_ERR_MAX	20

/*
 * SIGHUP (the terminal closed: curses would never see it, the default
 * action kills) and SIGTERM end the loop like a hang-up, so that unsaved
 * changes are kept (rescue.c) rather than lost. SA_RESTART: a save
 * under way is not interrupted; the loop looks at the flag between keys.
 */
static volatile sig_atomic_t	cut_off;

static void
on_cut_off(int sig)
{
	cut_off = sig;
}

static void
catch_cut_off(void)
{
	struct sigaction	sa, old;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_cut_off;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	/* An ignored hang-up (nohup) stays ignored: poll still sees it. */
	if (sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Whether the loop must end: SIGHUP or SIGTERM came. */
static int
cut_off_seen(struct app *a)
{
	if (cut_off == 0)
		return 0;
	a->term_gone = cut_off == SIGTERM ? TERM_KILLED : TERM_HUNG_UP;
	return 1;
}

int
term_usable(void)
{
	const char	*script = getenv("GGUFED_SCRIPT");

	if (script != NULL && *script != '\0')
		return 1;
	return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

/*
 * Whether the terminal has gone away. curses answers a hang-up (read()
 * failing with EIO) or the end of input (read() returning 0) as it does
 * a timeout; poll tells a hang-up apart, and a read that fails well
 * before its timeout, again and again, is an input that has ended.
 */
static int
term_gone(struct app *a, double waited, int wait_ms)
{
	struct pollfd	pfd;

	memset(&pfd, 0, sizeof pfd);
	pfd.fd = STDIN_FILENO;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 0) == 1 &&
	    (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0)
		return 1;
	if (waited >= wait_ms / 2) {
		a->quick_errs = 0;
		return 0;
	}
	return ++a->quick_errs >= QUICK_ERR_MAX;
}

/*
 * Function keys and the mouse, set up before the first key is read: the
 * first screen is drawn without waiting for curses to build its table of
 * the terminal's key sequences.
 */
static int	keys_ready;

static void
keys_setup(void)
{
	if (keys_ready)
		return;
	keys_ready = 1;
	keypad(stdscr, TRUE);
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
	    | BUTTON5_PRESSED
#endif
	    , NULL);
	mouseinterval(200);
}

int
term_input(struct app *a, struct tui_input *in, int busy)
{
	wint_t	wc;
	MEVENT	me;
	double	t0;
	int	rc, wait_ms = busy ? 50 : IDLE_WAKE_MS;

	if (cut_off_seen(a))
		return -1;
	keys_setup();
	timeout(wait_ms);
	t0 = app_now_ms();
	rc = get_wch(&wc);
	memset(in, 0, sizeof *in);
	if (cut_off_seen(a))
		return -1;
	if (rc == ERR) {
		if (term_gone(a, app_now_ms() - t0, wait_ms)) {
			a->term_gone = TERM_HUNG_UP;
			return -1;
		}
		return follow_terminal_size() ? 2 : 1;	/* timeout: tick */
	}
	a->quick_errs = 0;
	if (rc == KEY_CODE_YES) {
		if (wc == KEY_RESIZE) {
			(void)follow_terminal_size();
			return 2;
		}
		if (wc == KEY_MOUSE) {
			if (getmouse(&me) != OK)
				return 1;
			in->key = TK_MOUSE;
			in->y = me.y;
			in->x = me.x;
			in->bstate = (unsigned long)me.bstate;
			return 0;
		}
		in->key = TK_FN | (int)wc;
		return 0;
	}
	in->key = (int)wc;
	return 0;
}
int
term_key_waiting(void)
{
	wint_t	wc;
	int	rc;

	keys_setup();
	timeout(0);
	rc = get_wch(&wc);
	if (rc == ERR)
		return 0;
	if (rc == KEY_CODE_YES)
		ungetch((int)wc);
	else
		unget_wch((wchar_t)wc);
	return 1;
}

int
term_esc_typed(void)
{
	wint_t	wc;
	int	rc, esc = 0;

	keys_setup();
	timeout(0);
	while ((rc = get_wch(&wc)) != ERR) {
		if (rc == OK && (wc == 0x1b || wc == 0x03))	/* Esc, Ctrl-C */
			esc = 1;
	}
	return esc;
}

/*
 * Out of memory while curses has the terminal: the terminal is given
 * back first, so that the one line saying so shows.
 */
static void
term_oom(size_t n)
{
	if (!isendwin())
		endwin();
	fprintf(stderr, "ggufed: out of memory allocating %zu bytes\n", n);
	_exit(1);
}

int
term_start(struct app *a)
{
	const char	*script = getenv("GGUFED_SCRIPT");
	const char	*term = getenv("TERM");

	catch_cut_off();	/* before curses, which catches SIGTERM if not */
	if (script != NULL && *script != '\0') {
		a->script_path = script;
		a->jobs_held = 1;
		if ((a->script = fopen(script, "r")) == NULL) {
			fprintf(stderr, "ggufed: %s: %s\n", script,
			    strerror(errno));
			return -1;
		}
		/* Two streams on /dev/null, one each way: on purpose. */
		a->tty_out = fopen("/dev/null", "w");
		/* cppcheck-suppress incompatibleFileOpen */
		a->tty_in = fopen("/dev/null", "r");
		if (a->tty_out == NULL || a->tty_in == NULL) {
			fprintf(stderr, "ggufed: /dev/null: %s\n",
			    strerror(errno));
			return -1;
		}
		if (term == NULL || *term == '\0')
			term = "xterm-256color";
		a->scr = newterm(term, a->tty_out, a->tty_in);
	} else
		a->scr = newterm(NULL, stdout, stdin);
	if (a->scr == NULL) {
		fprintf(stderr, "ggufed: cannot use terminal type '%s'\n",
		    term != NULL ? term : "");
		return -1;
	}
	set_term(a->scr);
	a->oom_prev = xmalloc_set_oom(term_oom);
	if (a->script != NULL)
		resizeterm(24, 80);
	raw();
	noecho();
	nonl();
	set_escdelay(25);
	curs_set(0);
	/*
	 * Until a screen has once been left and come back to (endwin, then
	 * the next refresh), ncurses writes out what it has after every move
	 * of the cursor: a write(2), and over a network a packet, for each
	 * line of every frame. Left and come back to now, before colours
	 * are started (coming back would then reset the terminal's palette)
	 * and anything is drawn, every frame is one write. (Not for a script,
	 * whose frames go to /dev/null: there a write costs nothing and
	 * coming back, about 180,000 instructions, would be all the cost.)
	 */
	if (a->script == NULL) {
		endwin();
		doupdate();
	}
	keys_ready = 0;		/* keys_setup, at the first key */
	draw_init_theme();
	return 0;
}

void
term_stop(struct app *a)
{
	if (a->scr != NULL) {
		(void)xmalloc_set_oom(a->oom_prev);
		endwin();
		delscreen(a->scr);
		a->scr = NULL;
	}
	if (a->tty_out != NULL)
		fclose(a->tty_out);
	if (a->tty_in != NULL)
		fclose(a->tty_in);
	if (a->script != NULL)
		fclose(a->script);
}

