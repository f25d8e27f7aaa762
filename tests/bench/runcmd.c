/*
 * runcmd.c - runs a command N times and reports the median and minimum
 * wall time and the largest peak resident set size of the runs, for the
 * benchmarks (no dependency on a `time` program).
 *
 *	runcmd N COMMAND [ARG...]
 *	-> runs=N median_us=... min_us=... max_rss_kb=...
 *
 * The command's standard output goes to /dev/null; a run that fails stops
 * everything with its exit status.
 */
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int
cmp_u64(const void *a, const void *b)
{
	unsigned long long	x = *(const unsigned long long *)a;
	unsigned long long	y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	struct timespec		 t0, t1;
	struct rusage		 ru;
	unsigned long long	*us, *cpu;
	long			 rss = 0;
	int			 n, i, status, fd;
	pid_t			 pid;

	if (argc < 3 || (n = atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: runcmd N COMMAND [ARG...]\n");
		return 2;
	}
	us = calloc((size_t)n, sizeof *us);
	cpu = calloc((size_t)n, sizeof *cpu);
	if (us == NULL || cpu == NULL)
		return 2;
	for (i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		pid = fork();
		if (pid < 0) {
			perror("runcmd: fork");
			return 2;
		}
		if (pid == 0) {
			fd = open("/dev/null", O_WRONLY);
			if (fd >= 0)
				dup2(fd, 1);
			execvp(argv[2], argv + 2);
			perror("runcmd: exec");
			_exit(127);
		}
		if (wait4(pid, &status, 0, &ru) < 0) {
			perror("runcmd: wait4");
			return 2;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "runcmd: %s failed\n", argv[2]);
			return 1;
		}
		/* signed: tv_nsec of the end is often below the start's */
		us[i] = (unsigned long long)((long long)(t1.tv_sec -
		    t0.tv_sec) * 1000000LL + (t1.tv_nsec - t0.tv_nsec) / 1000);
		if (ru.ru_maxrss > rss)
			rss = ru.ru_maxrss;
		cpu[i] = (unsigned long long)(ru.ru_utime.tv_sec +
		    ru.ru_stime.tv_sec) * 1000000ULL +
		    (unsigned long long)(ru.ru_utime.tv_usec +
		    ru.ru_stime.tv_usec);
	}
	qsort(us, (size_t)n, sizeof *us, cmp_u64);
	qsort(cpu, (size_t)n, sizeof *cpu, cmp_u64);
	printf("runs=%d median_us=%llu min_us=%llu max_rss_kb=%ld cpu_us=%llu\n",
	    n, us[n / 2], us[0], rss, cpu[n / 2]);
	free(us);
	free(cpu);
	return 0;
}
