#!/usr/bin/env bash
# simhosts.sh - simulated hosts for tests/cli/mpi_hosts.bats: network
# namespaces joined by a bridge, each with a host name of its own, and an
# rsh agent that Open MPI uses in place of ssh to start its daemons in them.
#
#   simhosts.sh up PREFIX N     make hosts PREFIX-h1..hN (10.231.0.1..N/24)
#   simhosts.sh down PREFIX     remove them (and whatever `up` left half made)
#   simhosts.sh run PREFIX HOST COMMAND...
#                               COMMAND on HOST: its network namespace, a UTS
#                               namespace named HOST, and a mount namespace
#                               with a tmpfs of its own on $SIMHOSTS_LOCAL
#                               (when set): a node-local directory
#   simhosts.sh agent HOST CMD  what mpirun calls as `ssh HOST CMD`
#
# Every namespace, bridge and veth is made inside namespaces this script
# creates (named PREFIX-*), and the 10.231.0.0/24 addresses live only on
# veths inside them, so no packet can leave them; deleting the namespaces
# deletes everything.  Host names resolve through /etc/netns/PREFIX-hK/hosts,
# which `ip netns exec` puts in place of /etc/hosts.
set -euo pipefail

cmd=$1
shift

ns_list() {
	ip netns list | awk '{print $1}' | grep -E "^$1-(h[0-9]+|sw)\$" || true
}

down() {
	local prefix=$1 ns

	for ns in $(ns_list "$prefix"); do
		ip netns delete "$ns" 2>/dev/null || true
		rm -rf "/etc/netns/$ns"
	done
}

up() {
	local prefix=$1 n=$2 k hosts=""

	# a failure half-way leaves nothing behind
	trap 'down "$prefix"' ERR
	ip netns add "$prefix-sw"
	ip -n "$prefix-sw" link add br0 type bridge
	ip -n "$prefix-sw" link set br0 up
	for k in $(seq "$n"); do
		hosts+="10.231.0.$k $prefix-h$k"$'\n'
	done
	for k in $(seq "$n"); do
		local ns=$prefix-h$k

		ip netns add "$ns"
		# both ends are made inside the switch's namespace, then one moves
		ip -n "$prefix-sw" link add "p$k" type veth peer name eth0
		ip -n "$prefix-sw" link set eth0 netns "$ns"
		ip -n "$prefix-sw" link set "p$k" master br0 up
		ip -n "$ns" addr add "10.231.0.$k/24" dev eth0
		ip -n "$ns" link set eth0 up
		ip -n "$ns" link set lo up
		mkdir -p "/etc/netns/$ns"
		printf '127.0.0.1 localhost\n%s' "$hosts" >"/etc/netns/$ns/hosts"
	done
	trap - ERR
}

# run PREFIX HOST COMMAND...
run_on() {
	local prefix=$1 host=$2

	shift 2
	exec ip netns exec "$host" unshare --uts --mount --propagation private \
		bash -c 'hostname "$0"
			if [ -n "${SIMHOSTS_LOCAL:-}" ]; then
				mkdir -p "$SIMHOSTS_LOCAL"
				mount -t tmpfs -o size=64m simhosts "$SIMHOSTS_LOCAL"
			fi
			exec "$@"' "$host" "$@"
}

case $cmd in
up) up "$1" "$2" ;;
down) down "$1" ;;
run) run_on "$@" ;;
agent)
	# mpirun runs `AGENT HOST COMMAND-LINE` as it would `ssh HOST COMMAND-LINE`
	host=$1
	shift
	run_on "${host%-h*}" "$host" sh -c "$*"
	;;
*)
	echo "usage: simhosts.sh up|down|run|agent ..." >&2
	exit 2
	;;
esac
