/*
 * io.c - the system calls of a save, with a switch for injecting faults.
 *
 * Every write, fsync, close, rename, unlink, open, fallocate and read of
 * tensor data that the writer, the save and the recovery make goes
 * through a gguf_io_* wrapper here. Normally a wrapper is the system call.
 * When the environment variable GGUFED_FAULT holds rules (it is read once,
 * at the first call), a wrapper may fail instead, the way a full disk, a
 * quota, a bad sector or a crash would make it fail:
 *
 *	GGUFED_FAULT=RULE[,RULE...]
 *	RULE	OP:N:ERR	the Nth call of OP (counting from 1) fails
 *				with errno ERR; "N+" fails it and every
 *				later call of OP
 *		OP:N:short	the Nth call of a write OP writes half of
 *				what it was asked (at least 1 byte)
 *		OP:N:stall	the Nth call of OP waits, before it is made,
 *				for as long as the file named by the
 *				environment variable GGUFED_STALL exists (at
 *				most a minute): a slow disk, for tests that
 *				look at a save while it runs
 *		OP:N:crash	the process ends (_exit, status
 *				GGUF_FAULT_EXIT) before the Nth call of OP,
 *				as a crash or a power cut would end it
 *		map:N:stop	the process stops itself (SIGSTOP) before
 *				the Nth guarded read of mapped tensor data
 *				(or of a piece of it that statistics or
 *				the data check read into a buffer),
 *				so that a test can change the file under it
 *				and let it go on (SIGCONT) deterministically
 *		kill:BYTES	the process kills itself with SIGKILL once
 *				BYTES bytes have been written in all, in the
 *				middle of the write that crosses the limit
 *	OP	write (write, pwrite, copy_file_range), read (pread of
 *		tensor data, copy_file_range), fsync, close, rename,
 *		unlink, link, open, fallocate, map (a guarded read of the
 *		mapping, see guard.c: stop only), alloc (xmalloc.c:
 *		every allocation that must not fail), mmap (the mapping
 *		of a whole file to read it, source/local.c: a system that
 *		will not map it)
 *	ERR	ENOSPC EIO EDQUOT EFBIG EACCES EPERM EROFS EINTR ENOMEM, or
 *		a number
 *
 * A value without ':' is a named step of a save (see gguf_fault).
 *
 * EINTR and short writes must be invisible to the user: the callers retry.
 * Every other failure must leave the target as it was (see save.c).
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "io.h"
#include "xmalloc.h"

enum io_op {
	IO_WRITE, IO_READ, IO_FSYNC, IO_CLOSE, IO_RENAME, IO_UNLINK, IO_OPEN,
	IO_FALLOCATE, IO_MAP, IO_ALLOC, IO_LINK, IO_MMAP, IO_NOPS
};

static const char *const	op_names[IO_NOPS] = {
	"write", "read", "fsync", "close", "rename", "unlink", "open",
	"fallocate", "map", "alloc", "link", "mmap"
};

#define MAX_RULES	16
#define ERR_SHORT	(-1)
#define ERR_STALL	(-2)
#define STALL_MAX_MS	60000
#define ERR_STOP	(-3)
#define ERR_CRASH	(-4)

struct rule {
	enum io_op	op;
	uint64_t	nth;
	int		from_on;	/* "N+" */
	int		err;		/* errno, or ERR_SHORT */
};

static int		parsed;
static struct rule	rules[MAX_RULES];
static size_t		n_rules;
static uint64_t		calls[IO_NOPS];
static uint64_t		kill_at = UINT64_MAX;
static uint64_t		written;

static int
parse_err(const char *s, size_t n)
{
	static const struct {
		const char	*name;
		int		 err;
	} names[] = {
		{ "ENOSPC", ENOSPC }, { "EIO", EIO }, { "EDQUOT", EDQUOT },
		{ "EFBIG", EFBIG }, { "EACCES", EACCES }, { "EPERM", EPERM },
		{ "EROFS", EROFS }, { "EINTR", EINTR }, { "ENOMEM", ENOMEM },
		{ "short", ERR_SHORT }, { "stall", ERR_STALL },
		{ "stop", ERR_STOP }, { "crash", ERR_CRASH },
	};
	size_t	i;
	char	buf[16];

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strlen(names[i].name) == n &&
		    strncmp(names[i].name, s, n) == 0)
			return names[i].err;
	}
	if (n == 0 || n >= sizeof buf)
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return atoi(buf);
}

static void
parse_rules(void)
{
	const char	*e, *r, *c1, *c2, *end;
	struct rule	*ru;
	size_t		 i;
	char		*num;

	parsed = 1;
	if ((e = getenv("GGUFED_FAULT")) == NULL || strchr(e, ':') == NULL)
		return;
	for (r = e; *r != '\0' && n_rules < MAX_RULES; r = *end ? end + 1 : end) {
		if ((end = strchr(r, ',')) == NULL)
			end = r + strlen(r);
		if ((c1 = memchr(r, ':', (size_t)(end - r))) == NULL)
			continue;
		if ((size_t)(c1 - r) == 4 && strncmp(r, "kill", 4) == 0) {
			kill_at = strtoull(c1 + 1, NULL, 10);
			continue;
		}
		if ((c2 = memchr(c1 + 1, ':', (size_t)(end - c1 - 1))) == NULL)
			continue;
		ru = &rules[n_rules];
		for (i = 0; i < IO_NOPS; i++) {
			if (strlen(op_names[i]) == (size_t)(c1 - r) &&
			    strncmp(op_names[i], r, (size_t)(c1 - r)) == 0)
				break;
		}
		if (i == IO_NOPS)
			continue;
		ru->op = (enum io_op)i;
		ru->nth = strtoull(c1 + 1, &num, 10);
		ru->from_on = *num == '+';
		ru->err = parse_err(c2 + 1, (size_t)(end - c2 - 1));
		if (ru->nth > 0 && ru->err != 0)
			n_rules++;
	}
}

/* Waits while the file $GGUFED_STALL exists, at most STALL_MAX_MS. */
static void
stall(void)
{
	const char	*flag = getenv("GGUFED_STALL");
	struct timespec	 ts = { 0, 10 * 1000 * 1000 };
	struct stat	 st;
	int		 ms;

	for (ms = 0; flag != NULL && ms < STALL_MAX_MS; ms += 10) {
		if (stat(flag, &st) != 0)
			break;
		nanosleep(&ts, NULL);
	}
}

/*
 * The injected errno for this call of op (ERR_SHORT for a short write,
 * ERR_STOP for a stop), or 0; a stall is waited out here and is then 0.
 * Calls of map come from several threads: the rules are read before any
 * of them starts (gguf_io_init) and the count is atomic.
 */
static int
fault(enum io_op op)
{
	uint64_t	n;
	size_t		i;

	if (!parsed)
		parse_rules();
	if (n_rules == 0)
		return 0;
	n = __atomic_add_fetch(&calls[op], 1, __ATOMIC_RELAXED);
	for (i = 0; i < n_rules; i++) {
		if (rules[i].op != op || (n != rules[i].nth &&
		    !(rules[i].from_on && n > rules[i].nth)))
			continue;
		if (rules[i].err == ERR_CRASH)
			_exit(GGUF_FAULT_EXIT);
		if (rules[i].err != ERR_STALL)
			return rules[i].err;
		stall();
	}
	return 0;
}

/*
 * How much of a write of n bytes may go out before the kill limit; the
 * caller writes that much and then calls die().
 */
static size_t
room(size_t n)
{
	if (!parsed)
		parse_rules();
	if (kill_at == UINT64_MAX || kill_at - written > n)
		return n;
	return (size_t)(kill_at - written);
}

static void
die(void)
{
	kill(getpid(), SIGKILL);
	_exit(GGUF_FAULT_EXIT);		/* not reached */
}

/* Applies a write rule: 0 to go on with *n bytes, else -1 with errno. */
static int
write_rule(size_t *n, int *kill_after)
{
	int	e = fault(IO_WRITE);
	size_t	k;

	if (e == ERR_SHORT && *n > 1)
		*n /= 2;
	else if (e > 0) {
		errno = e;
		return -1;
	}
	k = room(*n);
	*kill_after = k < *n || (kill_at != UINT64_MAX &&
	    written + k >= kill_at);
	*n = k;
	return 0;
}

static ssize_t
after_write(ssize_t r, int kill_after)
{
	if (r > 0)
		written += (uint64_t)r;
	if (kill_after)
		die();
	return r;
}

ssize_t
gguf_io_write(int fd, const void *p, size_t n)
{
	int	ka;

	if (write_rule(&n, &ka) != 0)
		return -1;
	return after_write(write(fd, p, n), ka);
}

ssize_t
gguf_io_pwrite(int fd, const void *p, size_t n, off_t off)
{
	int	ka;

	if (write_rule(&n, &ka) != 0)
		return -1;
	return after_write(pwrite(fd, p, n, off), ka);
}

#ifdef HAVE_COPY_FILE_RANGE
ssize_t
gguf_io_copy_file_range(int in, off_t *ioff, int out, off_t *ooff, size_t n)
{
	int	ka, e = fault(IO_READ);

	if (e > 0) {
		errno = e;
		return -1;
	}
	if (write_rule(&n, &ka) != 0)
		return -1;
	return after_write(copy_file_range(in, ioff, out, ooff, n, 0), ka);
}
#endif

ssize_t
gguf_io_pread(int fd, void *p, size_t n, off_t off)
{
	int	e = fault(IO_READ);

	if (e == ERR_SHORT && n > 1)
		n /= 2;
	else if (e > 0) {
		errno = e;
		return -1;
	}
	return pread(fd, p, n, off);
}

#define PLAIN(op, call) do {				\
	int	e_ = fault(op);				\
							\
	if (e_ > 0) {					\
		errno = e_;				\
		return -1;				\
	}						\
	return call;					\
} while (0)

int
gguf_io_fsync(int fd)
{
	PLAIN(IO_FSYNC, fsync(fd));
}

int
gguf_io_close(int fd)
{
	int	e = fault(IO_CLOSE);

	if (e > 0) {
		close(fd);	/* the descriptor is gone either way */
		errno = e;
		return -1;
	}
	return close(fd);
}

int
gguf_io_rename(const char *from, const char *to)
{
	PLAIN(IO_RENAME, rename(from, to));
}

int
gguf_io_unlink(const char *path)
{
	PLAIN(IO_UNLINK, unlink(path));
}

int
gguf_io_link(const char *from, const char *to)
{
	PLAIN(IO_LINK, link(from, to));
}

int
gguf_io_open(const char *path, int flags, mode_t mode)
{
	PLAIN(IO_OPEN, open(path, flags, mode));
}

int
gguf_io_fallocate(int fd, off_t len)
{
#ifdef __linux__
	PLAIN(IO_FALLOCATE, fallocate(fd, 0, 0, len));
#else
	(void)fd;
	(void)len;
	errno = EOPNOTSUPP;
	return -1;
#endif
}

void
gguf_io_init(void)
{
	if (!parsed)
		parse_rules();
}

int
gguf_io_counting(void)
{
	gguf_io_init();
	return n_rules > 0 || kill_at != UINT64_MAX;
}

void
gguf_io_map_read(void)
{
	/* to this thread: a signal to the process may be taken by another
	 * thread while this one reads on before the whole process stops */
	if (fault(IO_MAP) == ERR_STOP)
		raise(SIGSTOP);
}

int
gguf_io_alloc_fails(void)
{
	return fault(IO_ALLOC) != 0;
}

int
gguf_io_mmap_fails(void)
{
	int	e = fault(IO_MMAP);

	return e > 0 ? e : 0;
}

/* ------------------------------------------------------------ named steps */

int	(*gguf_fault_hook)(const char *step);

int
gguf_fault(const char *step, struct gguf_err *err)
{
	const char	*e;

	if (gguf_fault_hook != NULL) {
		if (gguf_fault_hook(step) != 0)
			return gguf_errf(err, -1, "I/O error (injected at "
			    "step %s)", step);
		return 0;
	}
	e = getenv("GGUFED_FAULT");
	if (e != NULL && strcmp(e, step) == 0)
		_exit(GGUF_FAULT_EXIT);
	return 0;
}

/* ------------------------------------------------------------------ paths */

/*
 * The path with its symlinks resolved, allocated; NULL with errno set if
 * it cannot be. The kernel names the file it opens (O_PATH, read from
 * /proc/self/fd) after one walk of the path, where realpath() walks it
 * once a component; realpath() is what remains without /proc.
 */
char *
gguf_realpath(const char *path)
{
	static const char	 gone[] = " (deleted)";
	char			 link[40], buf[4096], *real, *fb;
	ssize_t			 n;
	int			 fd;

	if ((fd = open(path, O_PATH | O_CLOEXEC)) < 0)
		return NULL;
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof buf);
	close(fd);
	if (n > 0 && (size_t)n < sizeof buf && buf[0] == '/') {
		buf[n] = '\0';
		if ((size_t)n < sizeof gone || strcmp(buf + n -
		    (sizeof gone - 1), gone) != 0)
			return xstrdup(buf);
	}
	if ((fb = realpath(path, NULL)) == NULL)
		return NULL;
	real = xstrdup(fb);
	free(fb);
	return real;
}

/*
 * The path held (gguf_resolve_hold) and what it resolved to, in this
 * thread: the checks made of one file in a row (its lock, its journal,
 * its temporary files) each resolve it, and it is walked once.
 */
static __thread struct {
	char	*path;
	char	*real;
} held;

/* The path with its symlinks resolved, or the path itself if it cannot be. */
char *
gguf_resolve(const char *path)
{
	char	*real;

	if (held.path != NULL && strcmp(path, held.path) == 0) {
		if (held.real == NULL)
			held.real = (real = gguf_realpath(path)) != NULL ?
			    real : xstrdup(path);
		return xstrdup(held.real);
	}
	if ((real = gguf_realpath(path)) == NULL)
		return xstrdup(path);
	return real;
}

void
gguf_resolve_hold(const char *path)
{
	gguf_resolve_drop();
	held.path = xstrdup(path);
}

void
gguf_resolve_drop(void)
{
	free(held.path);
	free(held.real);
	held.path = held.real = NULL;
}
