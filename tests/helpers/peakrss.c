/*
 * peakrss - the peak resident set of a command, for tests: runs ARGV with
 * its standard output to /dev/null and prints its ru_maxrss in KiB; exits
 * 1 when it fails.
 *
 * Linux counts in a child's peak the resident set it had before exec (the
 * mm it leaves keeps its high-water mark): a child of python or bash starts
 * from theirs, several MiB, more than iosweep's own before a run.  This
 * program's is a few hundred KiB, below any iosweep command's, so the peak
 * is the command's.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status, fd;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: peakrss COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("peakrss: fork");
		return 1;
	}
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(127);
		execvp(argv[1], argv + 1);
		perror("peakrss: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("peakrss: wait4");
		return 1;
	}
	printf("%ld\n", ru.ru_maxrss);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
