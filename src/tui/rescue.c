/*
 * rescue.c - unsaved changes are not lost when the browser is cut off.
 *
 * When its terminal goes away (a hang-up, a closed window, a dropped ssh
 * connection) or it is terminated, nobody is there to ask whether to
 * save, and saving a model unasked is not ours to decide. The pending
 * changes are written instead as a script of the edit language (the
 * lines cmd/script.c makes from the document) into the state directory,
 * rescue/NAME-YYYYMMDD-HHMMSS-PID.ged, with the command that applies
 * them; standard error says where. The next browser on the same file
 * says that the script is there, and :rescue applies it as pending edits
 * and removes it (so does `ggufed edit FILE -i -f SCRIPT` once saved).
 */
#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "doc.h"
#include "cmd/lang.h"
#include "xmalloc.h"

static const char	file_tag[] = LANG_RESCUE_FILE;

/* The file's resolved path (or the path as opened), allocated. */
static char *
real_of(struct app *a)
{
	char	*r = realpath(gguf_doc_path(a->doc), NULL);

	return r != NULL ? r : xstrdup(gguf_doc_path(a->doc));
}

static const char *
base_of(const char *path)
{
	const char	*s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

/* s for a POSIX shell: in single quotes, each ' written '\''. */
static void
put_shell(FILE *fp, const char *s)
{
	fputc('\'', fp);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputs("'\\''", fp);
		else
			fputc(*s, fp);
	}
	fputc('\'', fp);
}

int
rescue_write(struct app *a, const char *why)
{
	struct gguf_err	 err;
	struct tm	 tm;
	time_t		 now = time(NULL);
	char		*dir, *real, *q, path[PATH_MAX], stamp[32];
	FILE		*fp = NULL;
	int		 fd = -1, n = -1, lost = 0, saved_errno = 0;

	real = real_of(a);
	dir = state_safe_dir("rescue", 1);
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	if (dir != NULL) {
		snprintf(path, sizeof path, "%s/%s-%s-%ld.ged", dir,
		    base_of(real), stamp, (long)getpid());
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		saved_errno = errno;
	}
	if (fd >= 0 && (fp = fdopen(fd, "w")) == NULL) {
		saved_errno = errno;
		close(fd);
	}
	if (fp != NULL) {
		strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);
		q = gguf_str_quote(real, strlen(real));
		fprintf(fp, LANG_RESCUE_HEAD " (%s) at %s.\n%s%s\n# To apply "
		    "them to the file (which removes this script once saved):"
		    "\n#\tggufed edit FILE -i -f SCRIPT\n# or :rescue in the "
		    "browser on the file.\n", why, stamp, file_tag, q);
		free(q);
		n = lang_script(a->doc, fp, &lost, &err);
		if (n >= 0 && fsync(fileno(fp)) != 0)
			n = -1;
		saved_errno = errno;
		if (fclose(fp) != 0)
			n = -1;
		if (n < 0)
			unlink(path);
	}
	if (n < 0) {
		fprintf(stderr, "ggufed: %s: %u unsaved change%s lost: %s\n",
		    why, mdl_n_changes(a), mdl_n_changes(a) == 1 ? "" : "s",
		    dir != NULL ? strerror(saved_errno) : state_unsafe() !=
		    NULL ? state_unsafe() : "no state directory (neither "
		    "XDG_STATE_HOME nor HOME is set)");
		free(dir);
		free(real);
		return -1;
	}
	fprintf(stderr, "ggufed: %s: %d unsaved change%s kept in %s\n", why,
	    n, n == 1 ? "" : "s", path);
	if (lost > 0)
		fprintf(stderr, "ggufed: %d of them cannot be written as an "
		    "edit (the script says which)\n", lost);
	fputs("ggufed: to apply them: ggufed edit ", stderr);
	put_shell(stderr, real);
	fputs(" -i -f ", stderr);
	put_shell(stderr, path);
	fputc('\n', stderr);
	free(dir);
	free(real);
	return 0;
}

/* Whether the script at path was written for the file real. */
static int
is_for(const char *path, const char *real)
{
	FILE	*fp;
	char	 line[PATH_MAX * 4 + 16], *q;
	int	 i, yes = 0, fd;

	/* Never a FIFO planted there: the browser would wait on it. */
	if ((fd = gguf_open_regular(path, O_RDONLY, NULL)) < 0)
		return 0;
	if ((fp = fdopen(fd, "r")) == NULL) {
		close(fd);
		return 0;
	}
	q = gguf_str_quote(real, strlen(real));
	for (i = 0; i < 4 && fgets(line, sizeof line, fp) != NULL; i++) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, file_tag, sizeof file_tag - 1) == 0) {
			yes = strcmp(line + sizeof file_tag - 1, q) == 0;
			break;
		}
	}
	free(q);
	fclose(fp);
	return yes;
}

/*
 * The newest script kept for the file a shows, into best (len bytes): 1,
 * or 0 if there is none, or the state directory is not ours.
 */
static int
rescue_find(struct app *a, char *best, size_t len)
{
	struct dirent	*de;
	DIR		*dp;
	char		*dir, *real, path[PATH_MAX];
	const char	*base;
	size_t		 bl, nl;

	best[0] = '\0';
	if (state_unsafe() != NULL || (dir = state_dir("rescue")) == NULL)
		return 0;
	if ((dp = opendir(dir)) == NULL) {
		free(dir);
		return 0;
	}
	real = real_of(a);
	base = base_of(real);
	bl = strlen(base);
	while ((de = readdir(dp)) != NULL) {
		nl = strlen(de->d_name);
		if (nl <= bl + 5 || strncmp(de->d_name, base, bl) != 0 ||
		    de->d_name[bl] != '-' || strcmp(de->d_name + nl - 4,
		    ".ged") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		/* The newest: the names sort by time. */
		if (strcmp(path, best) > 0 && is_for(path, real))
			snprintf(best, len, "%s", path);
	}
	closedir(dp);
	free(real);
	free(dir);
	return best[0] != '\0';
}

/* path, with the home directory written ~, into buf. */
static const char *
tilde(const char *path, char *buf, size_t len)
{
	const char	*home = getenv("HOME");
	size_t		 hl = home != NULL ? strlen(home) : 0;

	if (hl > 1 && strncmp(path, home, hl) == 0 && path[hl] == '/')
		snprintf(buf, len, "~%s", path + hl);
	else
		snprintf(buf, len, "%s", path);
	return buf;
}

void
rescue_notice(struct app *a)
{
	char		 best[PATH_MAX], shown[PATH_MAX + 1];
	const char	*why;

	/* A script in a directory others can write may not be ours. */
	if ((why = state_unsafe()) != NULL) {
		app_msg(a, 1, "not keeping histories or unsaved edits in %s "
		    "(not trusted)", why);
		return;
	}
	if (rescue_find(a, best, sizeof best))
		app_msg(a, 1, "unsaved edits kept: :rescue applies them "
		    "(%s)", tilde(best, shown, sizeof shown));
}

int
rescue_apply(struct app *a)
{
	struct lang_cmd	 cmd;
	FILE		*fp;
	char		 best[PATH_MAX], shown[PATH_MAX + 1], msg[512], *line = NULL,
			*p;
	size_t		 cap = 0, lno = 0;
	ssize_t		 len;
	int		 rc = LANG_OK, n = 0;

	if (!rescue_find(a, best, sizeof best)) {
		app_msg(a, 0, "no unsaved edits are kept for this file");
		return R_DRAW;
	}
	tilde(best, shown, sizeof shown);
	if ((fp = fopen(best, "r")) == NULL) {
		app_msg(a, 1, "%s: %s", shown, strerror(errno));
		return R_DRAW;
	}
	while ((len = getline(&line, &cap, fp)) >= 0) {
		lno++;
		if ((size_t)len != strlen(line)) {
			snprintf(msg, sizeof msg, "a NUL byte in the line");
			rc = LANG_ERR;
			break;
		}
		line[strcspn(line, "\n")] = '\0';
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == '\0' || *p == '#')
			continue;
		/* Edits the browser made: what it was told to force, too. */
		if ((rc = lang_parse(p, &cmd, msg, sizeof msg)) == LANG_OK) {
			cmd.force = 1;
			rc = lang_apply(app_doc_edit(a), &cmd, msg, sizeof msg);
			lang_cmd_free(&cmd);
		}
		if (rc < 0)
			break;
		n++;
	}
	free(line);
	fclose(fp);
	if (rc < 0) {
		app_msg(a, 1, "%s:%zu: %s (the %d edit%s before it are "
		    "pending; the script is kept)", shown, lno, msg, n,
		    n == 1 ? "" : "s");
		return R_DRAW | R_EDITED;
	}
	/* Applied: the edits are pending here now, the script is done. */
	if (unlink(best) != 0)
		app_msg(a, 1, "applied %d kept edit%s, but %s stays: %s", n,
		    n == 1 ? "" : "s", shown, strerror(errno));
	else
		app_msg(a, 0, "applied %d kept edit%s (the script is "
		    "removed; w saves them, D shows them)", n, n == 1 ? "" :
		    "s");
	return R_DRAW | R_EDITED;
}
