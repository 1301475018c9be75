# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "combined": one boot per configuration.  baseline's checks,
# then chunks' checks, on the same guests, the same transport and the
# same module parameters; chunks' result names get a "chunks." prefix
# (e2e.NAME.client.chunks.fsx.v3).  rr2.args words and roles as in
# baseline and chunks; both runs read the same words.  baseline's
# rr2_main runs it all: its client run is replaced, and its server's
# wait for the client carries fleet's and acl-swap's server parts.
# With rr2.args
# word krb5=1 (two guests), krb5.sh's pass follows: sec=krb5, krb5i and
# krb5p mounts, results prefixed "krb5.".  With rr2.args word fleet=1
# (three guests), fleet.sh's pass comes first: a second client, with
# its own module, at the same time, and its crash.  With rr2.args word
# aclswap=1 (two or three guests: role single never waits for a
# client, so there it fails), acl-swap.sh's phases come last:
# NFSv3 ACLs of 60 entries both ways (the server makes the fixture
# before it waits for the client and checks what the client set after)
# and a swap file paged out to under memory pressure, results
# prefixed "aclswap.".

# shellcheck disable=SC1091
. /rr2/scenarios/acl-swap.sh
eval "rr2_aclswap_client_run() $(declare -f rr2_client_run | tail -n +2)"
# shellcheck disable=SC1091
. /rr2/scenarios/chunks.sh
eval "rr2_chunks_client_run() $(declare -f rr2_client_run | tail -n +2)"
# shellcheck disable=SC1091
. /rr2/scenarios/baseline.sh
eval "rr2_baseline_client_run() $(declare -f rr2_client_run | tail -n +2)"
# shellcheck disable=SC1091
. /rr2/scenarios/krb5.sh
# shellcheck disable=SC1091
. /rr2/scenarios/fleet.sh

rr2_client_run() {
	rr2_fleet_on && rr2_fleet_client_run
	rr2_baseline_client_run
	RR2_PREFIX=chunks. rr2_chunks_client_run
	if rr2_krb5_on; then
		RR2_PREFIX=krb5. rr2_krb5_client_run
	fi
	if rr2_aclswap_on; then
		if [ "$RR2_ROLE" = single ]; then
			rr2_fail aclswap.needs-two-guests
		else
			RR2_PREFIX=aclswap. rr2_aclswap_client_run
		fi
	fi
}

rr2_aclswap_on() { [ "$(rr2_arg aclswap 0)" = 1 ]; }

# The server's part of acl-swap: around fleet's (and baseline's) wait.
eval "rr2_combined_server_wait_client() $(declare -f rr2_server_wait_client | tail -n +2)"
rr2_server_wait_client() {
	if rr2_aclswap_on && rr2_phase acl && [ "$RR2_ROLE" = server ]; then
		RR2_PREFIX=aclswap. rr2_check acl.server.fixture \
			rr2_acl_server_setup
	fi
	rr2_combined_server_wait_client
	if rr2_aclswap_on && rr2_phase acl && [ "$RR2_ROLE" = server ]; then
		RR2_PREFIX=aclswap. rr2_check acl.server.setfacl-on-disk \
			rr2_acl_server_verify
	fi
}
