// SPDX-License-Identifier: GPL-2.0-only
/*
 * rr2cap: print the RPC-over-RDMA transport headers that cross a
 * guest's NIC, for golden vectors taken from what the stock Linux
 * client and server really send.
 *
 *   rr2cap IFNAME SECONDS
 *
 * Reads RoCEv2 frames (IPv4, UDP port 4791) from an AF_PACKET socket
 * and prints, for each RC Send that starts a message, one line
 *   RR2CAP <src-ip> <opcode> <payload-octets> <hex of up to 256 octets>
 * Built statically on the host and copied into the guest's initramfs,
 * so the guest image needs no capture tool of its own.
 */
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define ROCE_PORT	4791
#define BTH_LEN		12
#define ICRC_LEN	4

/* RC opcodes that carry the first octets of a Send */
static int send_start_hdrlen(unsigned int op)
{
	switch (op) {
	case 0x00:		/* SEND_FIRST */
	case 0x04:		/* SEND_ONLY */
		return 0;
	case 0x05:		/* SEND_ONLY_WITH_IMMEDIATE */
	case 0x17:		/* SEND_ONLY_WITH_INVALIDATE */
		return 4;
	default:
		return -1;
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	unsigned char f[9000];
	struct timeval tv = { .tv_sec = 1 };
	time_t end;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: rr2cap IFNAME SECONDS\n");
		return 2;
	}
	fd = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_P_IP));
	sll.sll_protocol = htons(ETH_P_IP);
	sll.sll_ifindex = if_nametoindex(argv[1]);
	if (fd < 0 || !sll.sll_ifindex ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		perror("rr2cap");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	end = time(NULL) + atoi(argv[2]);
	while (time(NULL) < end) {
		ssize_t n = recv(fd, f, sizeof(f), 0);
		unsigned int ihl, op, pad, i, plen;
		const unsigned char *ip = f, *udp, *bth, *pl;
		int ext;

		if (n < 20 || (ip[0] >> 4) != 4 || ip[9] != 17)
			continue;
		ihl = (ip[0] & 15) * 4;
		if (n < ihl + 8 + BTH_LEN + ICRC_LEN)
			continue;
		udp = ip + ihl;
		if (((udp[2] << 8) | udp[3]) != ROCE_PORT)
			continue;
		bth = udp + 8;
		op = bth[0];
		ext = send_start_hdrlen(op);
		if (ext < 0)
			continue;
		pad = (bth[1] >> 4) & 3;
		pl = bth + BTH_LEN + ext;
		if (pl + ICRC_LEN + pad > f + n)
			continue;
		plen = f + n - pl - ICRC_LEN - pad;
		printf("RR2CAP %u.%u.%u.%u 0x%02x %u ", ip[12], ip[13], ip[14],
		       ip[15], op, plen);
		for (i = 0; i < plen && i < 256; i++)
			printf("%02x", pl[i]);
		printf("\n");
	}
	return 0;
}
