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
 * says that the script is there until it is deleted.
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

static const char	file_tag[] = "# file: ";

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
	dir = state_dir("rescue");
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	if (dir != NULL) {
		state_make_dirs(dir);
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
		fprintf(fp, "# Unsaved changes, kept when the browser was cut "
		    "off (%s) at %s.\n%s%s\n# To apply them to the file, then "
		    "delete this script:\n#\tggufed edit FILE -i -f SCRIPT\n",
		    why, stamp, file_tag, q);
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
		    dir == NULL ? "no state directory (neither XDG_STATE_HOME "
		    "nor HOME is set)" : strerror(saved_errno));
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

void
rescue_notice(struct app *a)
{
	struct dirent	*de;
	DIR		*dp;
	char		*dir, *real, path[PATH_MAX], best[PATH_MAX];
	const char	*base, *home;
	size_t		 bl, nl, hl;

	if ((dir = state_dir("rescue")) == NULL)
		return;
	if ((dp = opendir(dir)) == NULL) {
		free(dir);
		return;
	}
	real = real_of(a);
	base = base_of(real);
	bl = strlen(base);
	best[0] = '\0';
	while ((de = readdir(dp)) != NULL) {
		nl = strlen(de->d_name);
		if (nl <= bl + 5 || strncmp(de->d_name, base, bl) != 0 ||
		    de->d_name[bl] != '-' || strcmp(de->d_name + nl - 4,
		    ".ged") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		/* The newest: the names sort by time. */
		if (strcmp(path, best) > 0 && is_for(path, real))
			snprintf(best, sizeof best, "%s", path);
	}
	closedir(dp);
	home = getenv("HOME");
	hl = home != NULL ? strlen(home) : 0;
	if (best[0] != '\0' && hl > 1 && strncmp(best, home, hl) == 0 &&
	    best[hl] == '/')
		app_msg(a, 1, "unsaved edits kept: ~%s (its first lines say how "
		    "to apply them)", best + hl);
	else if (best[0] != '\0')
		app_msg(a, 1, "unsaved edits kept: %s (its first lines say how "
		    "to apply them)", best);
	free(real);
	free(dir);
}
