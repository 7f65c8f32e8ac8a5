#!/usr/bin/env bash
# Installs headless Chromium from Debian's packages for the browser test
# (browser.test.js), only when /usr/bin/chromium is missing: a second run does
# nothing. The test drives it with playwright-core, which downloads no browser
# of its own. Needs root (CI and the developers' machines run as root).
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
	# Debian's wrapper script may complain on stderr about the machine's
	# memory size; the version is on stdout.
	echo "interop: chromium is installed: $(/usr/bin/chromium --version 2>/dev/null || echo 'version unknown')"
	exit 0
fi

echo "interop: apt-get install chromium (missing)"
export DEBIAN_FRONTEND=noninteractive
# The package lists may be absent or old on a fresh machine: install from
# them as they are first, and refresh them only if that fails.
if ! apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null 2>&1; then
	apt-get update -qq >/dev/null
	apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
/usr/bin/chromium --version 2>/dev/null
