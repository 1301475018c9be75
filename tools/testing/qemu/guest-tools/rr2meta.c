// SPDX-License-Identifier: GPL-2.0-only
/*
 * rr2meta: metadata operations on a directory, each checked, for the
 * QEMU scenarios (built statically on the host, run in the guest).
 *
 *   rr2meta DIR [N]
 *
 * Creates DIR, then N files in it (default 100), each holding its own
 * name; stats each (a regular file of that size); renames each; lists
 * DIR (exactly the N new names); unlinks each and removes DIR.  One
 * process does it all, so that the NFS operations, not fork and exec in
 * an emulated guest, take the time.
 *
 * Exit status 0: every step did what it should; 1: the first one that
 * did not, reported with its file name.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *dir;

static int fail(const char *what, const char *name)
{
	fprintf(stderr, "rr2meta: %s %s/%s: %s\n", what, dir, name,
		errno ? strerror(errno) : "unexpected result");
	return 1;
}

static void path(char *out, size_t len, char kind, int i)
{
	snprintf(out, len, "%s/%c%d", dir, kind, i);
}

int main(int argc, char **argv)
{
	char a[4096], b[4096], name[32];
	struct dirent *de;
	struct stat st;
	int i, n, fd, seen;
	DIR *d;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: rr2meta DIR [N]\n");
		return 2;
	}
	dir = argv[1];
	n = argc == 3 ? atoi(argv[2]) : 100;
	if (n < 1 || n > 100000)
		return 2;
	errno = 0;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return fail("mkdir", "");

	for (i = 0; i < n; i++) {
		path(a, sizeof(a), 'f', i);
		snprintf(name, sizeof(name), "f%d", i);
		errno = 0;
		fd = open(a, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			return fail("create", name);
		if (write(fd, name, strlen(name)) != (ssize_t)strlen(name))
			return fail("write", name);
		if (close(fd))
			return fail("close", name);
	}
	for (i = 0; i < n; i++) {
		path(a, sizeof(a), 'f', i);
		snprintf(name, sizeof(name), "f%d", i);
		errno = 0;
		if (stat(a, &st))
			return fail("stat", name);
		if (!S_ISREG(st.st_mode) || st.st_size != (off_t)strlen(name))
			return fail("stat (type or size)", name);
	}
	for (i = 0; i < n; i++) {
		path(a, sizeof(a), 'f', i);
		path(b, sizeof(b), 'g', i);
		snprintf(name, sizeof(name), "f%d", i);
		errno = 0;
		if (rename(a, b))
			return fail("rename", name);
	}

	errno = 0;
	d = opendir(dir);
	if (!d)
		return fail("opendir", "");
	seen = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		errno = 0;
		if (de->d_name[0] != 'g')
			return fail("readdir (a name not renamed)", de->d_name);
		seen++;
	}
	closedir(d);
	if (seen != n) {
		errno = 0;
		fprintf(stderr, "rr2meta: %s lists %d entries, not %d\n",
			dir, seen, n);
		return 1;
	}

	for (i = 0; i < n; i++) {
		path(b, sizeof(b), 'g', i);
		snprintf(name, sizeof(name), "g%d", i);
		errno = 0;
		if (unlink(b))
			return fail("unlink", name);
		if (!lstat(b, &st))
			return fail("unlink (still there)", name);
	}
	errno = 0;
	if (rmdir(dir))
		return fail("rmdir", "");
	return 0;
}
