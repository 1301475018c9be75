// SPDX-License-Identifier: GPL-2.0-only
/*
 * rr2fsx: a file-system exerciser with data verification, for the QEMU
 * scenarios (built statically on the host, run in the guest).
 *
 *   rr2fsx [-n OPS] [-l MAXLEN] [-S MAXSIZE] [-s SEED] [-D] FILE
 *
 * Random writes, reads, truncates and fsyncs at random offsets and
 * lengths, through a buffered and an O_DIRECT descriptor.  A shadow copy
 * in memory holds what the file must contain; every read is compared
 * with it, and every 50 operations (and at the end) the whole file is
 * read back through O_DIRECT, which on NFS goes to the server.  Lengths
 * are drawn small, medium and large in equal measure so that inline,
 * continued and chunked RPCs all occur, and offsets are odd so that
 * payloads cross pages.  NFS takes O_DIRECT at any alignment; -D uses
 * the buffered descriptor only (for file systems that do not).
 *
 * Exit status 0: every octet matched; 1: a mismatch or a failed system
 * call, reported with the operation number and the offset.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned char *shadow, *buf;
static size_t size, maxsize, maxlen;
static int fd_buf, fd_dir;
static uint64_t rng;

static uint64_t next(void)
{
	/* xorshift64*: reproducible from the seed on any host */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static size_t pick_len(void)
{
	switch (next() % 3) {
	case 0:
		return 1 + next() % 4096;
	case 1:
		return 1 + next() % 65536;
	default:
		return 1 + next() % maxlen;
	}
}

static int fail(unsigned long op, const char *what, size_t off)
{
	fprintf(stderr, "rr2fsx: op %lu: %s at offset %zu: %s\n", op, what, off,
		errno ? strerror(errno) : "data mismatch");
	return 1;
}

static int do_pread(int fd, size_t off, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pread(fd, buf + done, len - done, off + done);
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += n;
	}
	errno = 0;
	return done == len ? 0 : -1;
}

static int do_pwrite(int fd, const unsigned char *src, size_t off, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pwrite(fd, src + done, len - done, off + done);
		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

/* Read [off, off + len) through @fd and compare it with the shadow. */
static int check(unsigned long op, int fd, size_t off, size_t len)
{
	size_t i;

	if (do_pread(fd, off, len))
		return fail(op, "read", off);
	for (i = 0; i < len; i++)
		if (buf[i] != shadow[off + i]) {
			errno = 0;
			return fail(op, "compare", off + i);
		}
	return 0;
}

static int check_all(unsigned long op)
{
	struct stat st;

	if (fstat(fd_dir, &st))
		return fail(op, "fstat", 0);
	if ((size_t)st.st_size != size) {
		errno = 0;
		fprintf(stderr, "rr2fsx: op %lu: size %lld, expected %zu\n",
			op, (long long)st.st_size, size);
		return 1;
	}
	return size ? check(op, fd_dir, 0, size) : 0;
}

int main(int argc, char **argv)
{
	unsigned long ops = 500, op;
	size_t off, len, i;
	int c, direct = O_DIRECT;

	maxlen = 256 * 1024;
	maxsize = 8 << 20;
	rng = 0x5eed;
	while ((c = getopt(argc, argv, "n:l:S:s:D")) != -1) {
		switch (c) {
		case 'D':
			direct = 0;
			break;
		case 'n':
			ops = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			maxlen = strtoul(optarg, NULL, 0);
			break;
		case 'S':
			maxsize = strtoul(optarg, NULL, 0);
			break;
		case 's':
			rng = strtoull(optarg, NULL, 0) | 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1 || !maxlen || maxlen > maxsize)
		goto usage;
	shadow = calloc(1, maxsize);
	buf = malloc(maxsize);
	if (!shadow || !buf)
		return 1;
	fd_buf = open(argv[optind], O_RDWR | O_CREAT | O_TRUNC, 0644);
	fd_dir = open(argv[optind], O_RDWR | direct);
	if (fd_buf < 0 || fd_dir < 0) {
		perror(argv[optind]);
		return 1;
	}
	for (op = 1; op <= ops; op++) {
		int fd = next() & 1 ? fd_dir : fd_buf;

		switch (next() % 8) {
		case 0: case 1: case 2: case 3:		/* write */
			len = pick_len();
			off = next() % (maxsize - len + 1);
			for (i = 0; i < len; i++)
				shadow[off + i] = (unsigned char)(next() >> 56);
			if (do_pwrite(fd, shadow + off, off, len))
				return fail(op, "write", off);
			if (off + len > size)
				size = off + len;
			break;
		case 4: case 5:				/* read */
			if (!size)
				break;
			off = next() % size;
			len = pick_len();
			if (len > size - off)
				len = size - off;
			if (check(op, fd, off, len))
				return 1;
			break;
		case 6:					/* truncate */
			len = next() % (maxsize + 1);
			if (ftruncate(fd_buf, len))
				return fail(op, "truncate", len);
			if (len > size)
				memset(shadow + size, 0, len - size);
			else
				memset(shadow + len, 0, size - len);
			size = len;
			break;
		default:
			if (fsync(fd_buf))
				return fail(op, "fsync", 0);
			break;
		}
		if (op % 50 == 0 && check_all(op))
			return 1;
	}
	if (fsync(fd_buf) || check_all(op))
		return fail(op, "final check", 0);
	printf("rr2fsx: %lu operations, final size %zu, all data verified\n",
	       ops, size);
	return 0;
usage:
	fprintf(stderr, "usage: rr2fsx [-n OPS] [-l MAXLEN] [-S MAXSIZE] [-s SEED] [-D] FILE\n");
	return 2;
}
