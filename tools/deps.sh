#!/bin/sh
# Installs the Debian packages a make target needs, when they are missing.
# usage: tools/deps.sh PACKAGE...   (as root: apt-get; otherwise it says what to install)
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "iosweep: missing Debian packages:$missing (sudo apt-get install$missing)" >&2
	exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq $missing >/dev/null 2>&1 ||
	{ apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq $missing >/dev/null; }
