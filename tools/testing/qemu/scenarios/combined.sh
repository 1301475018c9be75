# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Scenario "combined": one boot per configuration.  baseline's checks,
# then chunks' checks, on the same guests, the same transport and the
# same module parameters; chunks' result names get a "chunks." prefix
# (e2e.NAME.client.chunks.fsx.v3).  rr2.args words and roles as in
# baseline and chunks; both runs read the same words.  baseline's
# rr2_main runs it all: only its client run is replaced.  With rr2.args
# word krb5=1 (two guests), krb5.sh's pass follows: sec=krb5, krb5i and
# krb5p mounts, results prefixed "krb5.".  With rr2.args word fleet=1
# (three guests), fleet.sh's pass comes first: a second client, with
# its own module, at the same time, and its crash.

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
}
