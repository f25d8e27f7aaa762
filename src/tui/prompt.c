/*
 * prompt.c - every line of text the browser reads goes through libedit.
 *
 * libedit wants a terminal: it reads the user's editrc, switches between
 * emacs and vi keys, and only edits when its input is a tty. curses owns
 * ours. So libedit gets a terminal of its own: a private pseudo-terminal
 * whose master side nobody looks at (what libedit writes there is read
 * and dropped, so it can never block), a width wide enough that it never
 * wraps, and its keys through EL_GETCFN from the loop, which reads them
 * from curses (or from a test script). The line it holds (el_line) is
 * drawn by the app in the message line, so the screen is curses' all the
 * time and is intact afterwards, whatever was typed.
 *
 * Function keys arrive from curses decoded (KEY_LEFT); they are handed to
 * libedit as the sequences it binds by default (ESC [ D). A lone Esc
 * cancels in emacs mode, where Esc followed at once by a key is that
 * key with Meta; in vi mode Esc is libedit's, and C-c or C-g cancel.
 *
 * Histories (one per kind of question: commands, searches) are kept in
 * $XDG_STATE_HOME/ggufed/ (~/.local/state/ggufed/ by default), saved
 * after every line. Without a pseudo-terminal libedit reads plain lines:
 * the prompt still works, without editing keys.
 *
 * Tab completes the word at the cursor from candidates the app gives
 * (command names, keys, tensor names, type names): the longest common
 * prefix is inserted, and when that adds nothing the candidates are kept
 * for the app to show.
 */
#include "config.h"

#include <sys/ioctl.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <histedit.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "curses.h"
#include <term.h>
#include "tui.h"

#define HIST_SIZE	1000
#define CANDS_LEN	1024

static const char *const hist_files[H_COUNT] = {
	NULL, "commands", "searches"
};

struct prompt {
	struct prompt_io io;
	EditLine	*el;
	History		*hist[H_COUNT];	/* loaded at its first use */
	char		*hist_path[H_COUNT];
	int		 hist_tried[H_COUNT];
	FILE		*in;
	FILE		*out;
	int		 master;	/* the pseudo-terminal, or -1 */
	TERMINAL	*term;		/* libedit's terminal description */
	wchar_t		 queue[16];	/* keys still to hand to libedit */
	int		 nq, iq;
	int		 cancelled;
	int		 ended;
	int		 start_failed;	/* libedit could not be set up */
	int		 selected;	/* the prefill is untouched: a typed
					   character replaces it */
	char		 cands[CANDS_LEN];
	/* completion scratch */
	char		*common;
	size_t		 ncommon;
	int		 ncands;
	size_t		 candlen;
};

static struct prompt	*the_prompt;	/* for the libedit callbacks */

/* ------------------------------------------------------------- terminal */

/* Reads and drops what libedit wrote to its terminal. */
static void
drain(struct prompt *p)
{
	char	buf[4096];

	if (p->master < 0)
		return;
	while (read(p->master, buf, sizeof buf) > 0)
		;
}

static int
open_pty(struct prompt *p)
{
	struct winsize	ws;
	const char	*name;
	int		m, s;

	if ((m = posix_openpt(O_RDWR | O_NOCTTY)) < 0)
		return -1;
	if (grantpt(m) != 0 || unlockpt(m) != 0 ||
	    (name = ptsname(m)) == NULL ||
	    (s = open(name, O_RDWR | O_NOCTTY)) < 0) {
		close(m);
		return -1;
	}
	memset(&ws, 0, sizeof ws);
	ws.ws_row = 24;
	ws.ws_col = 1000;
	ioctl(s, TIOCSWINSZ, &ws);
	fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK);
	fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK);
	p->in = fdopen(s, "r");
	p->out = fdopen(dup(s), "w");
	if (p->in == NULL || p->out == NULL) {
		if (p->in != NULL)
			fclose(p->in);
		else
			close(s);
		if (p->out != NULL)
			fclose(p->out);
		p->in = p->out = NULL;
		close(m);
		return -1;
	}
	p->master = m;
	return 0;
}

/* ----------------------------------------------------------------- keys */

static void
queue_str(struct prompt *p, const char *s)
{
	p->nq = p->iq = 0;
	while (*s != '\0' && p->nq < (int)(sizeof p->queue /
	    sizeof p->queue[0]))
		p->queue[p->nq++] = (wchar_t)(unsigned char)*s++;
}

/* A curses function key as the sequence libedit binds. */
static const char *
fn_seq(int key)
{
	switch (key & ~TK_FN) {
	case KEY_UP:
		return "\033[A";
	case KEY_DOWN:
		return "\033[B";
	case KEY_RIGHT:
		return "\033[C";
	case KEY_LEFT:
		return "\033[D";
	case KEY_HOME:
		return "\033[H";
	case KEY_END:
		return "\033[F";
	case KEY_DC:
		return "\033[3~";
	case KEY_BACKSPACE:
		return "\177";
	case KEY_ENTER:
		return "\r";
	}
	return NULL;
}

static int
vi_mode(struct prompt *p)
{
	const char	*ed = NULL;

	return el_get(p->el, EL_EDITOR, &ed) == 0 && ed != NULL &&
	    strcmp(ed, "vi") == 0;
}

static int
getcfn(EditLine *el, wchar_t *c)
{
	struct prompt	*p = the_prompt;
	const LineInfo	*li;
	const char	*seq;
	int		 key;

	drain(p);
	if (p->cancelled || p->ended)
		return 0;
	if (p->iq < p->nq) {
		*c = p->queue[p->iq++];
		return 1;
	}
	for (;;) {
		key = p->io.key(p->io.arg);
		if (key == -1) {
			p->ended = 1;
			return 0;
		}
		if (key == TK_MOUSE || key == (TK_FN | KEY_RESIZE))
			continue;
		if (key == 0x03 || key == 0x07 ||
		    (key == 0x1b && !vi_mode(p) && !p->io.pending(p->io.arg))) {
			p->cancelled = 1;
			return 0;
		}
		/*
		 * The first key after a prefill: a character replaces the
		 * whole line, as typing over a selection does; any other key
		 * (a move, a deletion, Tab) keeps it and edits it.
		 */
		if (p->selected) {
			p->selected = 0;
			if (!(key & TK_FN) && key >= 0x20 && key != 0x7f) {
				li = el_line(el);
				el_cursor(el, (int)(li->lastchar - li->cursor));
				li = el_line(el);
				el_deletestr(el, (int)(li->cursor - li->buffer));
			}
		}
		if (key & TK_FN) {
			if ((seq = fn_seq(key)) == NULL)
				continue;
			queue_str(p, seq);
			*c = p->queue[p->iq++];
			return 1;
		}
		*c = (wchar_t)key;
		return 1;
	}
}

/* ----------------------------------------------------------- completion */

static void
add_cand(void *ctx, const char *cand)
{
	struct prompt	*p = ctx;
	size_t		 n = strlen(cand), k;

	if (p->ncands == 0) {
		free(p->common);
		p->common = xstrdup(cand);
		p->ncommon = n;
	} else {
		for (k = 0; k < p->ncommon && k < n && p->common[k] == cand[k];
		    k++)
			;
		p->ncommon = k;
	}
	p->ncands++;
	if (p->candlen + n + 3 < sizeof p->cands) {
		if (p->candlen > 0)
			p->cands[p->candlen++] = ' ';
		memcpy(p->cands + p->candlen, cand, n);
		p->candlen += n;
		p->cands[p->candlen] = '\0';
	} else if (p->candlen + 4 < sizeof p->cands &&
	    strcmp(p->cands + p->candlen - 3, "...") != 0) {
		memcpy(p->cands + p->candlen, " ...", 5);
		p->candlen += 4;
	}
}

/* Keeps the candidates that start with the word being completed. */
struct filter {
	struct prompt	*p;
	const char	*word;
	size_t		 wlen;
};

static void
add_filtered(void *ctx, const char *cand)
{
	struct filter	*f = ctx;

	if (strncmp(cand, f->word, f->wlen) == 0)
		add_cand(f->p, cand);
}

static unsigned char
complete(EditLine *el, int ch)
{
	struct prompt	*p = the_prompt;
	const LineInfo	*li = el_line(el);
	struct filter	 f;
	char		*line, *ins;
	size_t		 cur = (size_t)(li->cursor - li->buffer), w;

	(void)ch;
	line = xcalloc(1, cur + 1);
	memcpy(line, li->buffer, cur);
	for (w = cur; w > 0 && line[w - 1] != ' ' && line[w - 1] != '\t'; w--)
		;
	p->ncands = 0;
	p->candlen = 0;
	p->cands[0] = '\0';
	f.p = p;
	f.word = line + w;
	f.wlen = cur - w;
	if (p->io.complete != NULL)
		p->io.complete(p->io.arg, line, w, add_filtered, &f);
	if (p->ncands == 0) {
		free(line);
		return CC_REFRESH_BEEP;
	}
	if (p->ncommon > f.wlen) {
		ins = xcalloc(1, p->ncommon - f.wlen + 2);
		memcpy(ins, p->common + f.wlen, p->ncommon - f.wlen);
		if (p->ncands == 1 && p->common[p->ncommon - 1] != '.' &&
		    p->common[p->ncommon - 1] != ':')
			strcat(ins, " ");
		el_insertstr(el, ins);
		free(ins);
		if (p->ncands == 1)
			p->cands[0] = '\0';
	} else if (p->ncands == 1) {
		el_insertstr(el, " ");
		p->cands[0] = '\0';
	}
	free(line);
	return CC_REFRESH;
}

/* -------------------------------------------------------------- history */

/*
 * History h (H_CMD or H_SEARCH), read from its file the first time it is
 * asked for: not at start, where nothing shows it yet (a long history is
 * a noticeable part of the first screen's time). NULL if there is none.
 */
static History *
hist_get(struct prompt *p, int h)
{
	HistEvent	 ev;
	char		*dir, buf[PATH_MAX];

	if (h <= H_NONE || h >= H_COUNT)
		return NULL;
	if (p->hist_tried[h])
		return p->hist[h];
	p->hist_tried[h] = 1;
	if ((p->hist[h] = history_init()) == NULL)
		return NULL;
	history(p->hist[h], &ev, H_SETSIZE, HIST_SIZE);
	history(p->hist[h], &ev, H_SETUNIQUE, 1);
	if ((dir = state_safe_dir(NULL, 0)) == NULL)
		return p->hist[h];
	snprintf(buf, sizeof buf, "%s/%s", dir, hist_files[h]);
	free(dir);
	p->hist_path[h] = xstrdup(buf);
	history(p->hist[h], &ev, H_LOAD, buf);
	return p->hist[h];
}

/*
 * Writes history h to its file through a new file renamed over it: a
 * link at the file's name is replaced, never followed. Quietly: no
 * history is no error, and a state directory that is not safe (see
 * state_safe_dir) was said once, at start.
 */
static void
hist_save(struct prompt *p, int h)
{
	HistEvent	 ev;
	FILE		*fp;
	char		*dir, tmp[PATH_MAX];
	int		 fd, ok;

	if ((dir = state_safe_dir(NULL, 1)) == NULL)
		return;
	snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir, hist_files[h]);
	free(dir);
	if ((fd = mkstemp(tmp)) < 0)
		return;
	if ((fp = fdopen(fd, "w")) == NULL) {
		close(fd);
		unlink(tmp);
		return;
	}
	ok = history(p->hist[h], &ev, H_SAVE_FP, fp) >= 0;
	if (fclose(fp) != 0 || !ok || rename(tmp, p->hist_path[h]) != 0)
		unlink(tmp);
}

static void
hist_add(struct prompt *p, int h, const char *line)
{
	HistEvent	 ev;

	if (line[0] == '\0' || hist_get(p, h) == NULL)
		return;
	history(p->hist[h], &ev, H_ENTER, line);
	if (p->hist_path[h] != NULL)
		hist_save(p, h);
}

/* ------------------------------------------------------------------ API */

static const char *
no_prompt(EditLine *el)
{
	(void)el;
	return "";
}

struct prompt *
prompt_new(const struct prompt_io *io)
{
	struct prompt	*p = xcalloc(1, sizeof *p);

	p->io = *io;
	p->master = -1;
	return p;
}

/*
 * libedit, set up at the first question (most sessions ask none): its
 * pseudo-terminal, the editor and its keys, the user's editrc. 0, or -1
 * if it cannot start.
 *
 * libedit sets up a terminal description of its own with the curses
 * library (tgetent), which nothing frees: kept here, freed with the
 * prompt. That makes it the current terminal, and gives LINES and COLS
 * the size it finds; curses' own screen is running by now, so its
 * terminal and its size are put back.
 */
static int
prompt_start(struct prompt *p)
{
	TERMINAL	*prev;
	int		 was_lines = LINES, was_cols = COLS;

	if (p->el != NULL)
		return 0;
	if (p->start_failed)
		return -1;
	if (open_pty(p) != 0) {
		p->in = fopen("/dev/null", "r");
		p->out = fopen("/dev/null", "w");
	}
	if (p->in == NULL || p->out == NULL) {
		p->start_failed = 1;
		return -1;
	}
	prev = cur_term;
	p->el = el_init("ggufed", p->in, p->out, p->out);
	if (cur_term != prev) {
		if (p->el != NULL)
			p->term = cur_term;
		else if (cur_term != NULL)
			del_curterm(cur_term);
		set_curterm(prev);
	}
	LINES = was_lines;
	COLS = was_cols;
	if (p->el == NULL) {
		p->start_failed = 1;
		return -1;
	}
	the_prompt = p;
	el_wset(p->el, EL_GETCFN, getcfn);
	el_set(p->el, EL_PROMPT, no_prompt);
	el_set(p->el, EL_EDITOR, "emacs");
	/* The wide call: the narrow one copies the names and never frees
	   them. */
	el_wset(p->el, EL_ADDFN, L"ggufed-complete", L"complete the word",
	    complete);
	el_set(p->el, EL_BIND, "^I", "ggufed-complete", NULL);
	el_source(p->el, NULL);
	drain(p);
	return 0;
}

int
prompt_started(struct prompt *p)
{
	return p->el != NULL;
}

void
prompt_free(struct prompt *p)
{
	int	h;

	if (p == NULL)
		return;
	if (p->el != NULL)
		el_end(p->el);
	for (h = 0; h < H_COUNT; h++) {
		if (p->hist[h] != NULL)
			history_end(p->hist[h]);
		free(p->hist_path[h]);
	}
	if (p->in != NULL)
		fclose(p->in);
	if (p->out != NULL)
		fclose(p->out);
	if (p->master >= 0)
		close(p->master);
	if (p->term != NULL)
		del_curterm(p->term);
	free(p->common);
	if (the_prompt == p)
		the_prompt = NULL;
	free(p);
}

int
prompt_read(struct prompt *p, const char *init, int hist, char **line)
{
	const char	*s;
	char		*l;
	size_t		 n;
	int		 count = 0;

	*line = NULL;
	if (prompt_start(p) != 0)
		return -2;
	the_prompt = p;
	p->cancelled = p->ended = 0;
	p->nq = p->iq = 0;
	p->cands[0] = '\0';
	if (hist_get(p, hist) != NULL)
		el_set(p->el, EL_HIST, history, p->hist[hist]);
	else
		el_set(p->el, EL_HIST, NULL, NULL);
	el_reset(p->el);
	p->selected = 0;
	if (init != NULL && *init != '\0') {
		el_push(p->el, init);
		p->selected = 1;
	}
	s = el_gets(p->el, &count);
	p->selected = 0;
	drain(p);
	if (p->cancelled || p->ended || s == NULL) {
		/* A pushed prefill not read yet must not leak into the next. */
		p->cancelled = 0;
		return -1;
	}
	n = strlen(s);
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	l = xcalloc(1, n + 1);
	memcpy(l, s, n);
	hist_add(p, hist, l);
	*line = l;
	return 0;
}

void
prompt_line(struct prompt *p, const char **s, size_t *len, size_t *cursor)
{
	const LineInfo	*li;

	if (p->el == NULL) {
		*s = "";
		*len = *cursor = 0;
		return;
	}
	li = el_line(p->el);
	*s = li->buffer;
	*len = (size_t)(li->lastchar - li->buffer);
	*cursor = (size_t)(li->cursor - li->buffer);
}

int
prompt_selected(struct prompt *p)
{
	return p->selected;
}

const char *
prompt_candidates(struct prompt *p)
{
	return p->cands;
}
